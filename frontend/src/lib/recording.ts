/** Voice messages: what the browser recorded, sent as base64, and the errors a person can act on. */

/** The file name of a recording of MIME type `mime` ("audio/webm;codecs=opus" -> voice-<time>.webm). */
export function recordingName(mime: string, now: Date = new Date()): string {
  const base = (mime.split(";")[0] ?? "").trim().toLowerCase();
  const ext = { "audio/webm": "webm", "audio/ogg": "ogg", "audio/mp4": "m4a", "audio/mpeg": "mp3", "audio/wav": "wav" }[base] ?? "webm";
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  return `voice-${stamp}.${ext}`;
}

/** Why the microphone could not be used, from the error getUserMedia/MediaRecorder raised. */
export function microphoneError(error: unknown): string {
  const name = error && typeof error === "object" && "name" in error ? String((error as { name: unknown }).name) : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "The browser refused the microphone. Allow microphone access for this site and try again.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No microphone was found. Connect one and try again.";
    case "NotReadableError":
    case "AbortError":
      return "The microphone is in use by another program or could not be started.";
    case "Unsupported":
      return "This browser cannot record audio here (recording needs a secure https connection).";
    default:
      return "The recording could not be started.";
  }
}

/** The bytes of `blob` as plain base64 (no data: prefix). */
export function blobToBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error("The recording could not be read."));
    reader.onload = () => {
      const url = String(reader.result ?? "");
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.readAsDataURL(blob);
  });
}
