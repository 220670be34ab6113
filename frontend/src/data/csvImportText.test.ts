import { describe, expect, it } from "vitest";
import { countsText, importedText, importProblems, plannedText } from "./csvImportText";

describe("import counts", () => {
  it("names what was added, updated and left unchanged", () => {
    expect(countsText({ inserted: 1, updated: 0, unchanged: 0 })).toBe("1 row added");
    expect(countsText({ inserted: 0, updated: 2, unchanged: 3 })).toBe("2 rows updated, 3 rows unchanged");
    expect(countsText({ inserted: 0, updated: 0, unchanged: 0 })).toBe("no rows");
    expect(importedText({ inserted: 2, updated: 1, unchanged: 0 })).toBe("Imported: 2 rows added, 1 row updated.");
    expect(plannedText({ inserted: 0, updated: 0, unchanged: 2 })).toBe("On import: 2 rows unchanged.");
  });
});

describe("importProblems", () => {
  it("splits a refused import's problems by row", () => {
    expect(importProblems(["Nothing was imported. Correct these rows and import the file again:\nRow 1: Qty: x is not a number.\n... and 3 more problems."])).toEqual([
      "Row 1: Qty: x is not a number.",
      "... and 3 more problems.",
    ]);
    expect(importProblems(["Row 2: Qty must be a number Row 5: Title is required", "Row 7: bad\nRow 8: worse"])).toEqual([
      "Row 2: Qty must be a number",
      "Row 5: Title is required",
      "Row 7: bad",
      "Row 8: worse",
    ]);
  });
});
