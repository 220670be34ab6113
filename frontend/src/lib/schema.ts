/** The JSON schema of a tool as the model sees it, built from its parameters table (as the server does). */

export interface ToolParam {
  label?: string;
  fieldname: string;
  type: string;
  required?: number | boolean;
  description?: string;
  options?: string;
  child_table_name?: string;
}

type Schema = Record<string, unknown>;

export interface FunctionSchema {
  name: string;
  description: string;
  parameters: Schema;
}

const TYPES = new Set(["string", "integer", "number", "boolean", "array", "object"]);

function splitOptions(options: string | undefined): string[] {
  return (options ?? "")
    .split("\n")
    .map((o) => o.trim())
    .filter(Boolean);
}

function cast(value: string, type: string): string | number {
  if (type === "integer") return Number.parseInt(value, 10);
  if (type === "number") return Number.parseFloat(value);
  return value;
}

/** Schema of one parameter row. */
export function parameterSchema(row: ToolParam): Schema {
  const type = TYPES.has(row.type) ? row.type : "string";
  const schema: Schema = { type, description: row.description || row.label || row.fieldname };
  const enumValues = splitOptions(row.options).map((v) => cast(v, type));
  if (type === "array") schema.items = { type: "string", ...(enumValues.length ? { enum: enumValues } : {}) };
  else if (enumValues.length && type !== "boolean" && type !== "object") schema.enum = enumValues;
  if (type === "object") schema.additionalProperties = true;
  return schema;
}

export function objectSchema(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, required, additionalProperties: false };
}

/** Properties and required names of rows; rows of a child table become a list of objects. */
export function rowsToProperties(rows: ToolParam[]): [Record<string, Schema>, string[]] {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const tables = new Map<string, [Record<string, Schema>, string[]]>();
  for (const row of rows) {
    const key = (row.fieldname || "").trim();
    if (!key) continue;
    if (row.child_table_name) {
      const entry = tables.get(row.child_table_name) ?? [{}, []];
      entry[0][key] = parameterSchema(row);
      if (row.required) entry[1].push(key);
      tables.set(row.child_table_name, entry);
    } else {
      properties[key] = parameterSchema(row);
      if (row.required) required.push(key);
    }
  }
  for (const [table, [tableProperties, tableRequired]] of tables) {
    properties[table] = { type: "array", description: `Rows of the ${table} table`, items: objectSchema(tableProperties, tableRequired) };
  }
  return [properties, required];
}

export function buildToolSchema(name: string, description: string, params: ToolParam[]): FunctionSchema {
  return { name: name.trim(), description: description.trim(), parameters: objectSchema(...rowsToProperties(params)) };
}

/** A fieldname suggested from a label ("Customer Name" -> "customer_name"). */
export function toFieldname(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
