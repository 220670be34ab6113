/** The JSON schema of a tool as the model sees it, built from its parameters table. */

export interface ToolParam {
  label?: string;
  fieldname: string;
  type: string;
  required?: number | boolean;
  description?: string;
  options?: string;
}

export interface FunctionSchema {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: {
      type: "object";
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
  };
}

const TYPES = new Set(["string", "integer", "number", "boolean", "array", "object"]);

export function buildToolSchema(name: string, description: string, params: ToolParam[]): FunctionSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const param of params) {
    const key = (param.fieldname || "").trim();
    if (!key) continue;
    const type = TYPES.has(param.type) ? param.type : "string";
    const prop: Record<string, unknown> = { type };
    if (param.description?.trim()) prop.description = param.description.trim();
    const options = (param.options || "")
      .split("\n")
      .map((o) => o.trim())
      .filter(Boolean);
    if (options.length && type === "string") prop.enum = options;
    if (type === "array") prop.items = { type: "string" };
    properties[key] = prop;
    if (param.required) required.push(key);
  }
  return {
    type: "function",
    function: {
      name: toFunctionName(name),
      description: description.trim(),
      parameters: { type: "object", properties, required },
    },
  };
}

/** Tool names the model accepts: letters, digits, underscores and dashes. */
export function toFunctionName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A fieldname suggested from a label ("Customer Name" -> "customer_name"). */
export function toFieldname(label: string): string {
  return toFunctionName(label).replace(/-/g, "_");
}
