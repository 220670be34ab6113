import { describe, expect, it } from "vitest";
import type { Column } from "./dataApi";
import { pageInfo, toApiFilters, toggleSort, orderBy, type FilterRow } from "./gridQuery";

const columns: Column[] = [
  { fieldname: "title", label: "Title", fieldtype: "Data", options: null },
  { fieldname: "qty", label: "Qty", fieldtype: "Int", options: null },
  { fieldname: "done", label: "Done", fieldtype: "Check", options: null },
];
const row = (fieldname: string, operator: FilterRow["operator"], value: string, id = 1): FilterRow => ({ id, fieldname, operator, value });

describe("toApiFilters", () => {
  it("types numbers and checks, wraps contains in %, splits lists", () => {
    expect(
      toApiFilters(
        [row("qty", ">=", " 3 "), row("done", "=", "yes"), row("title", "like", "acme"), row("title", "not like", "a%"), row("qty", "in", "1, 2,,x")],
        columns,
      ),
    ).toEqual([
      ["qty", ">=", 3],
      ["done", "=", 1],
      ["title", "like", "%acme%"],
      ["title", "not like", "a%"],
      ["qty", "in", [1, 2, "x"]],
    ]);
  });
  it("leaves out rows without a field or value and reads is set / not set", () => {
    expect(toApiFilters([row("", "=", "x"), row("title", "=", "  "), row("title", "is", "not set"), row("qty", "is", "")], columns)).toEqual([
      ["title", "is", "not set"],
      ["qty", "is", "set"],
    ]);
  });
});

describe("sorting", () => {
  it("sorts ascending first, then flips", () => {
    const first = toggleSort(null, "qty");
    expect(orderBy(first)).toBe("qty asc");
    expect(orderBy(toggleSort(first, "qty"))).toBe("qty desc");
    expect(orderBy(toggleSort({ fieldname: "qty", direction: "desc" }, "title"))).toBe("title asc");
    expect(orderBy(null)).toBeUndefined();
  });
});

describe("pageInfo", () => {
  it("says which records show and where the pages start", () => {
    expect(pageInfo(0, 50, 50, 120)).toEqual({ label: "1–50 of 120", hasPrevious: false, hasNext: true, previousStart: 0, nextStart: 50 });
    expect(pageInfo(100, 50, 20, 120)).toMatchObject({ label: "101–120 of 120", hasPrevious: true, hasNext: false, previousStart: 50 });
    expect(pageInfo(0, 50, 0, 0).label).toBe("No records");
  });
});
