/** Form logic shared by the editors: field definitions, server errors mapped to fields, payloads. */

export type FieldType = "data" | "text" | "code" | "int" | "float" | "check" | "select" | "link" | "password";

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
