import { describe, expect, it } from "vitest";
import { countsText, errorLine, kindLines } from "./seedReport";

describe("seed report", () => {
  it("counts in words, zero for missing numbers", () => {
    expect(countsText({ created: 2, updated: 1 })).toBe("2 created, 1 updated, 0 unchanged.");
  });
  it("lists only kinds that seeded something", () => {
    expect(kindLines({ kinds: { prompts: { created: 1, unchanged: 2 }, tools: { created: 0, updated: 0, unchanged: 0 } } })).toEqual([
      "Prompts: 1 created, 0 updated, 2 unchanged.",
    ]);
  });
  it("names the app, file and key of a failed seed", () => {
    expect(errorLine({ app: "my_app", file: "huf/agents/a.json", key: "bot", error: "Model is required" })).toBe(
      "my_app · huf/agents/a.json · key bot: Model is required",
    );
    expect(errorLine({ error: "boom" })).toBe("boom");
  });
});
