import { describe, expect, it } from "vitest";
import { diffStats, sideBySide } from "./lineDiff";

const kinds = (rows: ReturnType<typeof sideBySide>) => rows.map((r) => r.kind);

describe("sideBySide", () => {
  it("shows identical texts as unchanged lines with their numbers", () => {
    const rows = sideBySide("a\nb", "a\nb");
    expect(kinds(rows)).toEqual(["same", "same"]);
    expect(rows[1]).toEqual({ kind: "same", left: { line: 2, text: "b" }, right: { line: 2, text: "b" } });
  });

  it("puts a replaced line beside its replacement", () => {
    const rows = sideBySide("You are helpful.\nAnswer briefly.\nBe kind.", "You are helpful.\nAnswer in detail.\nBe kind.");
    expect(kinds(rows)).toEqual(["same", "changed", "same"]);
    expect(rows[1]?.left).toEqual({ line: 2, text: "Answer briefly." });
    expect(rows[1]?.right).toEqual({ line: 2, text: "Answer in detail." });
    expect(diffStats(rows)).toEqual({ added: 1, removed: 1 });
  });

  it("numbers added and removed lines in their own text", () => {
    const rows = sideBySide("one\ntwo\nthree", "zero\none\nthree\nfour");
    expect(kinds(rows)).toEqual(["added", "same", "removed", "same", "added"]);
    expect(rows[0]?.right).toEqual({ line: 1, text: "zero" });
    expect(rows[2]?.left).toEqual({ line: 2, text: "two" });
    expect(rows[3]).toEqual({ kind: "same", left: { line: 3, text: "three" }, right: { line: 3, text: "three" } });
    expect(rows[4]?.right).toEqual({ line: 4, text: "four" });
    expect(diffStats(rows)).toEqual({ added: 2, removed: 1 });
  });

  it("pairs a longer replacement and leaves the rest as added", () => {
    const rows = sideBySide("a\nx\nb", "a\ny1\ny2\nb");
    expect(kinds(rows)).toEqual(["same", "changed", "added", "same"]);
    expect(rows[2]?.left).toBeUndefined();
  });

  it("handles empty texts and Windows line ends", () => {
    expect(sideBySide("", "")).toEqual([]);
    expect(kinds(sideBySide("", "new"))).toEqual(["added"]);
    expect(kinds(sideBySide("old", ""))).toEqual(["removed"]);
    expect(kinds(sideBySide("a\r\nb", "a\nb"))).toEqual(["same", "same"]);
  });

  it("keeps the common lines of reordered text", () => {
    const rows = sideBySide("a\nb\nc\nd", "b\nc\nd\na");
    expect(rows.filter((r) => r.kind === "same").map((r) => r.left?.text)).toEqual(["b", "c", "d"]);
    expect(diffStats(rows)).toEqual({ added: 1, removed: 1 });
  });
});
