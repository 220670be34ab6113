import { describe, expect, it } from "vitest";
import { liveInterval, parseHufEvent } from "./hufEvents";

describe("parseHufEvent", () => {
  it("reads a frame of /huf/events", () => {
    expect(parseHufEvent('{"kind":"run","event":"agent_run_status","message":{"status":"Success"}}')).toEqual({
      kind: "run",
      event: "agent_run_status",
      message: { status: "Success" },
    });
  });
  it("gives an empty message when the frame has none", () => {
    expect(parseHufEvent('{"kind":"knowledge","event":"huf_knowledge_update"}')?.message).toEqual({});
  });
  it("refuses what is not an event", () => {
    expect(parseHufEvent("not json")).toBeNull();
    expect(parseHufEvent('{"event":"x"}')).toBeNull();
    expect(parseHufEvent("null")).toBeNull();
  });
});

describe("liveInterval", () => {
  it("polls only while the stream is not connected", () => {
    expect(liveInterval(true, 2000)).toBe(false);
    expect(liveInterval(false, 2000)).toBe(2000);
    expect(liveInterval(false, false)).toBe(false);
  });
});
