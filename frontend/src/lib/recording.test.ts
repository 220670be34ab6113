import { describe, expect, it } from "vitest";
import { microphoneError, recordingName } from "./recording";

describe("recording", () => {
  it("names the file after the recorded format", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    expect(recordingName("audio/webm;codecs=opus", at)).toBe("voice-20260102T030405.webm");
    expect(recordingName("audio/mp4", at)).toBe("voice-20260102T030405.m4a");
    expect(recordingName("", at)).toBe("voice-20260102T030405.webm");
  });
  it("explains a refused or missing microphone", () => {
    expect(microphoneError({ name: "NotAllowedError" })).toMatch(/refused the microphone/);
    expect(microphoneError({ name: "NotFoundError" })).toMatch(/No microphone/);
    expect(microphoneError(new Error("x"))).toMatch(/could not be started/);
  });
});
