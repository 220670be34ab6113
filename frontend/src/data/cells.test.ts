import { describe, expect, it } from "vitest";
import { exportCsvUrl } from "./dataApi";
import { cellText, deleteQuestion, editText, inputKind, parseInput, rowValues } from "./cells";

describe("parseInput", () => {
  it("parses numbers, checks, dates and times, and clears on empty text", () => {
    expect(parseInput("42", "Int")).toEqual({ value: 42 });
    expect(parseInput("4.2", "Int")).toEqual({ error: "Enter a whole number." });
    expect(parseInput("4.25", "Currency")).toEqual({ value: 4.25 });
    expect(parseInput("abc", "Float")).toEqual({ error: "Enter a number." });
    expect(parseInput("yes", "Check")).toEqual({ value: 1 });
    expect(parseInput("", "Check")).toEqual({ value: 0 });
    expect(parseInput("2026-12-04", "Date")).toEqual({ value: "2026-12-04" });
    expect(parseInput("04/12/2026", "Date")).toHaveProperty("error");
    expect(parseInput("2026-12-04T09:30", "Datetime")).toEqual({ value: "2026-12-04 09:30:00" });
    expect(parseInput("9:30", "Time")).toEqual({ value: "9:30:00" });
    expect(parseInput("{bad", "JSON")).toEqual({ error: "Enter valid JSON." });
    expect(parseInput("  ", "Data")).toEqual({ value: null });
    expect(parseInput(" keep spaces ", "Long Text")).toEqual({ value: " keep spaces " });
  });
});

describe("cell display and editors", () => {
  it("shows checks as Yes/No and JSON as text", () => {
    expect(cellText(1, "Check")).toBe("Yes");
    expect(cellText(0, "Check")).toBe("No");
    expect(cellText({ a: 1 }, "JSON")).toBe('{"a":1}');
    expect(cellText(null, "Data")).toBe("");
    expect(editText("2026-12-04 09:30:00.000", "Datetime")).toBe("2026-12-04T09:30:00");
    expect(inputKind("Percent")).toBe("number");
    expect(inputKind("Select")).toBe("select");
    expect(inputKind("Long Text")).toBe("textarea");
  });
});

describe("rowValues", () => {
  it("leaves out empty fields and reports problems by field", () => {
    expect(rowValues({ title: "Acme", qty: "x", note: "", done: "" }, { title: "Data", qty: "Int", note: "Data", done: "Check" })).toEqual({
      values: { title: "Acme", done: 0 },
      errors: { qty: "Enter a whole number." },
    });
  });
});

describe("messages", () => {
  it("names counts", () => {
    expect(deleteQuestion(1)).toBe("Delete 1 record? This cannot be undone.");
    expect(deleteQuestion(3)).toBe("Delete 3 records? This cannot be undone.");
  });
});

describe("exportCsvUrl", () => {
  it("carries the grid's filters, order and search", () => {
    const url = exportCsvUrl("t1", { filters: [["qty", ">", 2]], order_by: "qty desc", search: "ac me" });
    const parsed = new URL(url, "http://x");
    expect(parsed.pathname).toBe("/api/method/huf.api.data_tables.export_csv");
    expect(Object.fromEntries(parsed.searchParams)).toEqual({ name: "t1", filters: '[["qty",">",2]]', order_by: "qty desc", search: "ac me" });
    expect(exportCsvUrl("t1", {})).toBe("/api/method/huf.api.data_tables.export_csv?name=t1");
  });
});
