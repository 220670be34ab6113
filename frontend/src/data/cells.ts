/** Record values in the grid: how a cell shows, what typed text means, and messages about rows. */
import type { FieldType } from "./dataApi";
import { NUMERIC_TYPES } from "./gridQuery";

/** The text a cell shows for a stored value. */
export function cellText(value: unknown, fieldtype: FieldType): string {
  if (value === null || value === undefined || value === "") return "";
  if (fieldtype === "Check") return Number(value) ? "Yes" : "No";
  if (fieldtype === "JSON" && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The text an editor starts with for a stored value. */
export function editText(value: unknown, fieldtype: FieldType): string {
  if (value === null || value === undefined) return "";
  if (fieldtype === "Check") return Number(value) ? "1" : "0";
  if (fieldtype === "JSON" && typeof value === "object") return JSON.stringify(value);
  if (fieldtype === "Datetime") return String(value).replace(" ", "T").slice(0, 19);
  return String(value);
}

export type Parsed = { value: unknown } | { error: string };

/** What a typed value means for a field, or why it cannot be saved. Empty text clears the value. */
export function parseInput(text: string, fieldtype: FieldType): Parsed {
  const t = fieldtype === "Long Text" || fieldtype === "Text" || fieldtype === "Small Text" ? text : text.trim();
  if (fieldtype === "Check") return { value: ["1", "yes", "true", "on"].includes(t.toLowerCase()) ? 1 : 0 };
  if (t === "") return { value: null };
  if (fieldtype === "Int") return /^-?\d+$/.test(t) ? { value: Number(t) } : { error: "Enter a whole number." };
  if (NUMERIC_TYPES.includes(fieldtype)) return Number.isFinite(Number(t)) ? { value: Number(t) } : { error: "Enter a number." };
  if (fieldtype === "Date") return /^\d{4}-\d{2}-\d{2}$/.test(t) ? { value: t } : { error: "Enter a date as YYYY-MM-DD." };
  if (fieldtype === "Datetime") {
    const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?$/.exec(t);
    return m ? { value: `${m[1]} ${m[2]}${m[3] ?? ":00"}` } : { error: "Enter a date and time." };
  }
  if (fieldtype === "Time") {
    const m = /^(\d{1,2}:\d{2})(:\d{2})?$/.exec(t);
    return m ? { value: `${m[1]}${m[2] ?? ":00"}` } : { error: "Enter a time as HH:MM." };
  }
  if (fieldtype === "JSON") {
    try {
      JSON.parse(t);
      return { value: t };
    } catch {
      return { error: "Enter valid JSON." };
    }
  }
  return { value: t };
}

/** The HTML input type of a field's editor ("select" and "textarea" are their own elements). */
export function inputKind(fieldtype: FieldType): "text" | "number" | "date" | "datetime-local" | "time" | "checkbox" | "select" | "textarea" {
  if (fieldtype === "Check") return "checkbox";
  if (fieldtype === "Select") return "select";
  if (fieldtype === "Int" || NUMERIC_TYPES.includes(fieldtype)) return "number";
  if (fieldtype === "Date") return "date";
  if (fieldtype === "Datetime") return "datetime-local";
  if (fieldtype === "Time") return "time";
  if (fieldtype === "Text" || fieldtype === "Long Text" || fieldtype === "JSON") return "textarea";
  return "text";
}

/** The values of a new row: empty texts left out, the rest parsed; the first problem by field. */
export function rowValues(texts: Record<string, string>, types: Record<string, FieldType>): { values: Record<string, unknown>; errors: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [fieldname, text] of Object.entries(texts)) {
    const fieldtype = types[fieldname];
    if (!fieldtype || (text === "" && fieldtype !== "Check")) continue;
    const parsed = parseInput(text, fieldtype);
    if ("error" in parsed) errors[fieldname] = parsed.error;
    else values[fieldname] = parsed.value;
  }
  return { values, errors };
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export const deleteQuestion = (n: number): string => `Delete ${plural(n, "record")}? This cannot be undone.`;
