import { describe, expect, it } from "vitest";
import type { Comparison, EvalRun } from "./evalApi";
import { comparisonSummary, defaultPair, isInFlight, progressLabel, progressPercent } from "./evalView";

const run = (name: string, status: EvalRun["status"], cost = 0): EvalRun =>
  ({ name, status, total_cost: cost, done_cases: 1, total_cases: 4 }) as EvalRun;

describe("eval runs", () => {
  it("knows a run in flight and its progress", () => {
    expect(isInFlight(run("a", "Running"))).toBe(true);
    expect(isInFlight(run("a", "Passed"))).toBe(false);
    expect(progressLabel(run("a", "Running"))).toBe("1 / 4");
    expect(progressPercent(run("a", "Running"))).toBe(25);
    expect(progressPercent({ done_cases: 0, total_cases: 0 })).toBe(0);
  });

  it("compares the newest finished run with the one before it", () => {
    expect(defaultPair([run("new", "Running"), run("b", "Passed"), run("a", "Failed")])).toEqual(["a", "b"]);
    expect(defaultPair([run("b", "Passed")])).toBeNull();
  });

  it("sums up a comparison", () => {
    const comparison = {
      a: run("a", "Failed", 0.05),
      b: run("b", "Passed", 0.03),
      cases: [{ change: "fixed" }, { change: "same" }, { change: "broken" }, { change: "fixed" }],
    } as Comparison;
    expect(comparisonSummary(comparison)).toBe("2 fixed, 1 broken; cost −$0.0200");
  });
});
