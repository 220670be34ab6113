import { describe, expect, it } from "vitest";
import { foldText, jsonLines, parseToolValue, sizeLabel } from "./toolValue";

describe("parseToolValue", () => {
  it("reads JSON text of objects and arrays, keeps other text", () => {
    expect(parseToolValue('{"a": [1, 2]}')).toEqual({ kind: "json", value: { a: [1, 2] } });
    expect(parseToolValue(' ["x"] ')).toEqual({ kind: "json", value: ["x"] });
    expect(parseToolValue("{not json")).toEqual({ kind: "text", text: "{not json" });
    expect(parseToolValue("42 rows")).toEqual({ kind: "text", text: "42 rows" });
    expect(parseToolValue({ b: 1 })).toEqual({ kind: "json", value: { b: 1 } });
    expect(parseToolValue(undefined)).toEqual({ kind: "json", value: {} });
  });
});

describe("foldText", () => {
  it("leaves short text whole and folds long text by lines or characters", () => {
    expect(foldText("one\ntwo")).toBeNull();
    const many = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    expect(foldText(many)).toEqual({ head: many.split("\n").slice(0, 12).join("\n"), hiddenLines: 18, hiddenChars: many.length - many.split("\n").slice(0, 12).join("\n").length });
    const wide = "x".repeat(5000);
    expect(foldText(wide)?.head.length).toBe(1200);
    expect(foldText(wide)?.hiddenChars).toBe(3800);
  });
});

describe("sizes", () => {
  it("counts lines and members", () => {
    expect(jsonLines({ a: 1, b: 2 })).toBe(4);
    expect(sizeLabel([1])).toBe("1 item");
    expect(sizeLabel({ a: 1, b: 2 })).toBe("2 keys");
  });
});
