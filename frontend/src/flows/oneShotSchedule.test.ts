import { describe, expect, it } from "vitest";
import { configProblems } from "./nodeConfig";
import { summary } from "./summary";

const fields = (config: Record<string, unknown>) => configProblems("trigger.schedule", config).map((p) => p.field);

describe("one-shot schedule steps", () => {
  it("take a time or a whole number of minutes instead of a repeat", () => {
    expect(fields({ at: "2026-12-24 09:30" })).toEqual([]);
    expect(fields({ at: "2026-12-24 09:30:00" })).toEqual([]);
    expect(fields({ at: "Christmas" })).toEqual(["at"]);
    expect(fields({ in_minutes: 30 })).toEqual([]);
    expect(fields({ in_minutes: 0 })).toEqual(["in_minutes"]);
    expect(fields({ in_minutes: 2.5 })).toEqual(["in_minutes"]);
  });
  it("read as once in the step's summary", () => {
    expect(summary("trigger.schedule", { at: "2026-12-24 09:30:00" })).toBe("once at 2026-12-24 09:30");
    expect(summary("trigger.schedule", { in_minutes: 30 })).toBe("once in 30 min");
    expect(summary("trigger.schedule", { interval_minutes: 60 })).toBe("every 60 min");
  });
});
