import { Mic } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { transcribeRecording } from "../chat/chatApi";
import { errorMessage } from "../lib/api";
import { blobToBase64, microphoneError, recordingName } from "../lib/recording";
import { Button } from "./ui";

type State = "idle" | "recording" | "transcribing";

/** Record a voice message, have the server transcribe it, and hand the text over (not sent yet). */
export function MicButton({ agent, conversation, onTranscript, onError }: { agent: string; conversation?: string; onTranscript: (text: string) => void; onError: (message: string | null) => void }) {
  const [state, setState] = useState<State>("idle");
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const release = () => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
  };
  useEffect(() => () => release(), []);

  const transcribe = async (blob: Blob, mime: string) => {
    setState("transcribing");
    try {
      const result = await transcribeRecording({ filename: recordingName(mime), b64data: await blobToBase64(blob), agent, conversation });
      const text = (result?.transcript ?? "").trim();
      if (text) onTranscript(text);
      else onError("Nothing was understood in the recording. Try again, closer to the microphone.");
    } catch (e) {
      onError(`Transcription failed: ${errorMessage(e)}`);
    } finally {
      setState("idle");
    }
  };

  const start = async () => {
    onError(null);
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      onError(microphoneError({ name: "Unsupported" }));
      return;
    }
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = new MediaRecorder(stream.current);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
      rec.onstop = () => {
        release();
        const mime = rec.mimeType || "audio/webm";
        void transcribe(new Blob(chunks, { type: mime }), mime);
      };
      rec.start();
      recorder.current = rec;
      setState("recording");
    } catch (e) {
      release();
      onError(microphoneError(e));
    }
  };

  const stop = () => {
    recorder.current?.stop();
    recorder.current = null;
  };

  if (state === "recording")
    return (
      <Button variant="danger" onClick={stop} aria-label="Stop recording">
        <span className="h-2 w-2 animate-pulse rounded-full bg-white" /> Stop recording
      </Button>
    );
  return (
    <Button variant="secondary" onClick={() => void start()} disabled={state === "transcribing"} aria-label="Record a voice message">
      {state === "transcribing" ? (
        "Transcribing…"
      ) : (
        <>
          <Mic aria-hidden="true" className="h-4 w-4" /> Voice
        </>
      )}
    </Button>
  );
}
