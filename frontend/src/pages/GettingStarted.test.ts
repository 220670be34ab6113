import { describe, expect, it } from "vitest";
import { SETUP_STEPS, stepsDone } from "./GettingStarted";

describe("the getting-started checklist", () => {
  it("ticks a step once a record of its kind exists, in order provider, model, agent, chat", () => {
    expect(SETUP_STEPS.map((s) => s.to)).toEqual(["/providers", "/models", "/agents", "/chat"]);
    expect(stepsDone([1, 0, 0, 0])).toEqual([true, false, false, false]);
    expect(stepsDone([2, 3, 1, 5])).toEqual([true, true, true, true]);
  });

  it("knows nothing until every count is in", () => {
    expect(stepsDone([1, undefined, 0, 0])).toBeNull();
  });
});
