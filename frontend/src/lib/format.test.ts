import { describe, expect, it } from "vitest";
import { deleteQuestion, formatScore, plural, recordNoun } from "./format";

describe("plural", () => {
  it("uses the singular for one and the plural otherwise", () => {
    expect(plural(1, "piece")).toBe("1 piece");
    expect(plural(0, "piece")).toBe("0 pieces");
    expect(plural(2, "piece")).toBe("2 pieces");
    expect(plural(1200, "token")).toBe("1,200 tokens");
    expect(plural(undefined, "token")).toBe("0 tokens");
    expect(plural(3, "index", "indexes")).toBe("3 indexes");
  });
});

describe("formatScore", () => {
  it("shows the score sent, with enough digits for small ones, and nothing when there is none", () => {
    expect(formatScore(0.8766)).toBe("0.877");
    expect(formatScore(0.5)).toBe("0.5");
    expect(formatScore(0.0000123)).toBe("0.000012");
    expect(formatScore(0.000002)).toBe("0.000002");
    expect(formatScore(0)).toBe("0");
    expect(formatScore(undefined)).toBeNull();
    expect(formatScore(Number.NaN)).toBeNull();
  });
});

describe("deleteQuestion", () => {
  it("names the record and what it is", () => {
    expect(deleteQuestion("agent", "Support bot")).toBe('Delete agent "Support bot"?');
    expect(deleteQuestion(recordNoun("Agent Tool Function"), "get_weather")).toBe('Delete tool "get_weather"?');
    expect(recordNoun("Knowledge Source")).toBe("knowledge source");
  });
});
