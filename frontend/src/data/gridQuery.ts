/** The records grid's query: filter rows, sorting and pages, as get_records / export_csv take them. */
import type { ApiFilter, Column, FieldType } from "./dataApi";

export const OPERATORS = [
  { value: "=", label: "equals" },
  { value: "!=", label: "is not" },
  { value: "like", label: "contains" },
  { value: "not like", label: "does not contain" },
  { value: ">", label: "greater than" },
  { value: "<", label: "less than" },
  { value: ">=", label: "at least" },
  { value: "<=", label: "at most" },
  { value: "in", label: "is one of" },
  { value: "not in", label: "is none of" },
  { value: "is", label: "is" },
] as const;

export type Operator = (typeof OPERATORS)[number]["value"];

export interface FilterRow {
  id: number;
  fieldname: string;
  operator: Operator;
  value: string;
}

export const NUMERIC_TYPES: FieldType[] = ["Int", "Float", "Currency", "Percent"];

/** The value a typed filter text means for a field of `fieldtype` (numbers as numbers, Check as 0/1). */
function typed(text: string, fieldtype: FieldType | undefined): unknown {
  const t = text.trim();
  if (fieldtype === "Check") return ["1", "yes", "true", "y"].includes(t.toLowerCase()) ? 1 : 0;
  if (fieldtype && NUMERIC_TYPES.includes(fieldtype) && t !== "" && Number.isFinite(Number(t))) return Number(t);
  return t;
}

/** The complete filter rows as [fieldname, operator, value]; rows without a field or value are left out. */
export function toApiFilters(rows: FilterRow[], columns: Column[]): ApiFilter[] {
  const types = new Map(columns.map((c) => [c.fieldname, c.fieldtype]));
  const out: ApiFilter[] = [];
  for (const row of rows) {
    if (!row.fieldname) continue;
    const fieldtype = types.get(row.fieldname);
    const text = row.value.trim();
    if (row.operator === "is") {
      out.push([row.fieldname, "is", text === "not set" ? "not set" : "set"]);
      continue;
    }
    if (!text) continue;
    if (row.operator === "in" || row.operator === "not in") {
      const items = text
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
        .map((v) => typed(v, fieldtype));
      if (items.length) out.push([row.fieldname, row.operator, items]);
    } else if (row.operator === "like" || row.operator === "not like") {
      out.push([row.fieldname, row.operator, text.includes("%") ? text : `%${text}%`]);
    } else {
      out.push([row.fieldname, row.operator, typed(text, fieldtype)]);
    }
  }
  return out;
}

export interface Sort {
  fieldname: string;
  direction: "asc" | "desc";
}

/** A click on a column header: sort by it ascending, or flip the direction when it already sorts. */
export function toggleSort(current: Sort | null, fieldname: string): Sort {
  if (current?.fieldname === fieldname) return { fieldname, direction: current.direction === "asc" ? "desc" : "asc" };
  return { fieldname, direction: "asc" };
}

export const orderBy = (sort: Sort | null): string | undefined => (sort ? `${sort.fieldname} ${sort.direction}` : undefined);

export interface PageInfo {
  label: string;
  hasPrevious: boolean;
  hasNext: boolean;
  previousStart: number;
  nextStart: number;
}

/** "51–100 of 120" and where the previous and next pages start. */
export function pageInfo(start: number, pageLength: number, shown: number, total: number): PageInfo {
  const label = total === 0 ? "No records" : `${start + 1}–${start + shown} of ${total}`;
  return {
    label,
    hasPrevious: start > 0,
    hasNext: start + shown < total,
    previousStart: Math.max(0, start - pageLength),
    nextStart: start + pageLength,
  };
}
