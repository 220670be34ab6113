import { describe, expect, it } from "vitest";
import { DEFAULT_LAYOUT, parseLayout } from "./editorLayout";

describe("parseLayout", () => {
  it("reads what was stored, each part on its own", () => {
    expect(parseLayout(JSON.stringify({ palette: false, inspector: true, wide: true }))).toEqual({ palette: false, inspector: true, wide: true });
    expect(parseLayout(JSON.stringify({ inspector: false }))).toEqual({ ...DEFAULT_LAYOUT, inspector: false });
  });

  it("falls back to everything shown for nothing, broken text or wrong values", () => {
    for (const text of [null, "", "{nope", "[1]", "42", JSON.stringify({ palette: "no", wide: 1 })]) expect(parseLayout(text)).toEqual(DEFAULT_LAYOUT);
  });
});
