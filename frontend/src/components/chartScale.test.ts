import { describe, expect, it } from "vitest";
import { labelEvery, niceTicks, shortDay } from "./chartScale";

describe("bar chart scale", () => {
  it("reaches the largest value in round steps", () => {
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(10)).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(niceTicks(0.013)).toEqual([0, 0.005, 0.01, 0.015]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it("counts in whole steps when asked", () => {
    expect(niceTicks(1, 4, 1)).toEqual([0, 1]);
    expect(niceTicks(3, 4, 1)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(10, 4, 1)).toEqual([0, 5, 10]);
  });

  it("draws an axis from 0 to 1 when there is nothing to show", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });

  it("labels days briefly and leaves out labels that would overlap", () => {
    expect(shortDay("2025-06-03")).toBe("Jun 3");
    expect(shortDay("2025-12-25")).toBe("Dec 25");
    expect(shortDay("soon")).toBe("soon");
    expect(labelEvery(14, 40, 36)).toBe(1);
    expect(labelEvery(14, 18, 36)).toBe(2);
    expect(labelEvery(14, 10, 36)).toBe(4);
  });
});
