import { describe, expect, it } from "vitest";
import { progressPercent, uploadProgress } from "./upload";

describe("upload progress", () => {
  it("is a whole percent of the bytes sent", () => {
    expect(progressPercent(0, 200)).toBe(0);
    expect(progressPercent(50, 200)).toBe(25);
    expect(progressPercent(199, 200)).toBe(99);
    expect(progressPercent(200, 200)).toBe(100);
  });

  it("stays within 0..100", () => {
    expect(progressPercent(300, 200)).toBe(100);
    expect(progressPercent(-5, 200)).toBe(0);
  });

  it("is unknown while the size is", () => {
    expect(progressPercent(10, 0)).toBeNull();
    expect(progressPercent(10, Number.NaN)).toBeNull();
    expect(uploadProgress(10, 0)).toEqual({ loaded: 10, total: 0, percent: null });
    expect(uploadProgress(1, 4)).toEqual({ loaded: 1, total: 4, percent: 25 });
  });
});
