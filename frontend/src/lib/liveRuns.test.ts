import { describe, expect, it } from "vitest";
import { elapsedSeconds, formatElapsed, isInFlight, isWaiting, pollWhileInFlight } from "./liveRuns";
import { clockOffset } from "./serverClock";

describe("pollWhileInFlight", () => {
  it("polls while a shown run is queued or started", () => {
    expect(pollWhileInFlight(["Success", "Queued"])).toBe(2000);
    expect(pollWhileInFlight(["Started"])).toBe(2000);
    expect(pollWhileInFlight(["Waiting Approval", "Started"])).toBe(2000);
  });

  it("polls slowly while a run only waits for a person", () => {
    expect(pollWhileInFlight(["Success", "Waiting Approval"])).toBe(10000);
  });

  it("stops when nothing is in flight, or nothing is loaded yet", () => {
    expect(pollWhileInFlight(["Success", "Failed", "Cancelled"])).toBe(false);
    expect(pollWhileInFlight([])).toBe(false);
    expect(pollWhileInFlight(undefined)).toBe(false);
    expect(pollWhileInFlight([null, undefined, ""])).toBe(false);
  });

  it("knows which statuses are in flight", () => {
    expect(["Queued", "Started", "Success", "Failed", "Cancelled"].map(isInFlight)).toEqual([true, true, false, false, false]);
    expect(["Waiting Approval", "Started", "Success"].map(isWaiting)).toEqual([true, false, false]);
  });
});

describe("elapsed time", () => {
  it("counts whole seconds from a server datetime, never below zero", () => {
    const start = "2026-01-02 10:00:00.500";
    const at = (text: string) => new Date(text).getTime();
    expect(elapsedSeconds(start, at("2026-01-02T10:00:12.600"))).toBe(12);
    expect(elapsedSeconds(start, at("2026-01-02T09:59:58"))).toBe(0);
    expect(elapsedSeconds(null, Date.now())).toBeNull();
    expect(elapsedSeconds("not a date", Date.now())).toBeNull();
  });

  it("counts on the server's clock when the server is in another time zone (or its clock is off)", () => {
    // the page was made at 15:30:00 on the server while the browser's clock said 10:00:00 (UTC+5:30)
    const offset = clockOffset("2026-01-02 15:30:00.000000", new Date("2026-01-02T10:00:00").getTime());
    const browserNow = new Date("2026-01-02T10:00:20").getTime();
    expect(elapsedSeconds("2026-01-02 15:30:05", browserNow, offset)).toBe(15);
    expect(elapsedSeconds("2026-01-02 15:30:05", browserNow)).toBe(0); // without it: the start looks ahead
    expect(clockOffset(undefined, Date.now())).toBe(0);
  });

  it("reads as seconds, minutes or hours", () => {
    expect(formatElapsed(0)).toBe("0 s");
    expect(formatElapsed(59.9)).toBe("59 s");
    expect(formatElapsed(65)).toBe("1 min 05 s");
    expect(formatElapsed(3599)).toBe("59 min 59 s");
    expect(formatElapsed(3720)).toBe("1 h 02 min");
  });
});
