/** Form logic shared by the editors: field definitions, server errors mapped to fields, payloads. */

/** `doctype`: a record type (DocType) name, typed or picked from those the user may read. */
export type FieldType = "data" | "text" | "code" | "int" | "float" | "check" | "select" | "link" | "password" | "doctype";

export interface FieldDef {
  fieldname: string;
  label: string;
  type: FieldType;
  options?: string[];
  /** Readable labels of select options (the stored values stay as they are). */
  optionLabels?: Record<string, string>;
  /** Record type to pick from, for links. */
  linkTo?: string;
  /** Narrow a link's choices by the current values (e.g. models of the chosen provider). */
  linkFilters?: (doc: Record<string, unknown>) => Record<string, unknown> | undefined;
  help?: string;
  required?: boolean;
  readOnly?: boolean;
  /** A "disabled"-style check shown the positive way round: the switch is on when the value is 0. */
  inverted?: boolean;
  /** Show the field only when this returns true for the current values. */
  showIf?: (doc: Record<string, unknown>) => boolean;
  min?: number;
  max?: number;
  step?: number;
}

/** The fields whose label (or name) a server message mentions, so the form can mark them. */
export function fieldsInMessage(message: string, fields: FieldDef[]): string[] {
  const text = message.toLowerCase();
  const hits = fields.filter((f) => {
    const label = f.label.toLowerCase();
    return new RegExp(`(^|[^a-z])${escapeRegExp(label)}([^a-z]|$)`).test(text) || text.includes(f.fieldname);
  });
  // "Top P" also contains "P"; prefer the longest labels when one label is inside another
  return hits
    .filter((f) => !hits.some((o) => o !== f && o.label.toLowerCase().includes(f.label.toLowerCase()) && o.label.length > f.label.length && new RegExp(escapeRegExp(o.label.toLowerCase())).test(text)))
    .map((f) => f.fieldname);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Coerce a form value to what the server stores for the field type. */
export function coerce(value: unknown, type: FieldType): unknown {
  switch (type) {
    case "int":
      return value === "" || value === null || value === undefined ? 0 : Math.trunc(Number(value));
    case "float":
      return value === "" || value === null || value === undefined ? 0 : Number(value);
    case "check":
      return value ? 1 : 0;
    default:
      return value ?? "";
  }
}

const META_KEYS = new Set(["creation", "modified", "modified_by", "owner", "docstatus", "idx", "doctype", "parent", "parentfield", "parenttype"]);

/** A child row ready to send back: server bookkeeping removed, its own name kept (so it is updated, not re-added). */
export function cleanRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (!META_KEYS.has(key) && !key.startsWith("__")) out[key] = value;
  }
  return out;
}

/** The values to save: every field of `fields` (coerced) and the given child tables. */
export function buildPayload(
  doc: Record<string, unknown>,
  fields: FieldDef[],
  tables: string[] = [],
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === "password") {
      // write-only: send only when the user typed a new value
      const value = doc[field.fieldname];
      if (typeof value === "string" && value !== "" && !/^\*+$/.test(value)) payload[field.fieldname] = value;
      continue;
    }
    if (field.fieldname in doc) payload[field.fieldname] = coerce(doc[field.fieldname], field.type);
  }
  for (const table of tables) {
    const rows = doc[table];
    if (Array.isArray(rows)) payload[table] = rows.map((r) => cleanRow(r as Record<string, unknown>));
  }
  return payload;
}

/** Defaults of a new record from the field definitions. */
export function defaults(fields: FieldDef[], values: Record<string, unknown> = {}): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === "check") doc[field.fieldname] = 0;
    else if (field.type === "select") doc[field.fieldname] = field.options?.[0] ?? "";
    else doc[field.fieldname] = "";
  }
  return { ...doc, ...values };
}

const isEmpty = (value: unknown): boolean => value === undefined || value === null || (typeof value === "string" && !value.trim());

/** Required fields shown for these values and left empty, in form order, each with its message. */
export function missingRequired(doc: Record<string, unknown>, fields: FieldDef[]): Array<{ fieldname: string; message: string }> {
  return fields
    .filter((f) => f.required && !f.readOnly && (!f.showIf || f.showIf(doc)) && isEmpty(doc[f.fieldname]))
    .map((f) => ({ fieldname: f.fieldname, message: `${f.label} is required.` }));
}

/** Whether the values differ from the saved ones in anything that would be sent on save. */
export function isDirty(doc: Record<string, unknown>, saved: Record<string, unknown>, fields: FieldDef[], tables: string[] = []): boolean {
  return JSON.stringify(buildPayload(doc, fields, tables)) !== JSON.stringify(buildPayload(saved, fields, tables));
}

/** A check field's switch position: on means 1, or 0 for an inverted field ("Enabled" over `disabled`). */
export const switchOn = (field: FieldDef, value: unknown): boolean => (field.inverted ? !value : Boolean(value));

/** The value stored for a switch position. */
export const switchValue = (field: FieldDef, on: boolean): number => (on !== Boolean(field.inverted) ? 1 : 0);

/** The field "Enabled" shown over a record's `disabled` check. */
export const ENABLED_FIELD: FieldDef = { fieldname: "disabled", label: "Enabled", type: "check", inverted: true };
