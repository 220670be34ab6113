/**
 * The Wait for input step (human.input, huf/ai/flows/nodes/user_input.py): its form's fields, what is
 * wrong with its settings, and the values an answer sends (the server checks them again).
 */

import { isDict, type Dict } from "./definition";
import { names, type FieldProblem } from "./nodeConfig";

export const INPUT_FIELD_TYPES = ["Data", "Text", "Int", "Float", "Check", "Select", "Date"] as const;
export type InputFieldType = (typeof INPUT_FIELD_TYPES)[number];
const FIELDNAME = /^[a-z_][a-z0-9_]{0,60}$/;
const MAX_FIELDS = 50;

/** One field of the form, as the node's settings hold it. */
export interface InputField {
  label?: string;
  fieldname?: string;
  fieldtype?: string;
  /** Select: a list, or one option per line. */
  options?: string[] | string;
  required?: number | boolean;
}

/** A field as the server stored it on the waiting run (checked, options as a list). */
export interface RequestField {
  label: string;
  fieldname: string;
  fieldtype: InputFieldType;
  options: string[];
  required: number;
}

/** What a waiting run asks for (its `waiting`, or a row of the inputs inbox). */
export interface InputRequest {
  flow_run_id: string;
  title?: string | null;
  instructions?: string | null;
  fields: RequestField[];
}

/** The fields of a node's settings (a list; anything else: none). */
export function inputFields(config: Dict): InputField[] {
  return Array.isArray(config.fields) ? (config.fields.filter(isDict) as InputField[]) : [];
}

/** A fieldname from a label: lowercase letters, digits and _. */
export function fieldnameFrom(label: string): string {
  return label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^[_\d]+|_+$/g, "")
    .slice(0, 61);
}

/** What is wrong with a human.input node's settings (the server refuses the same when the flow is saved). */
export function inputProblems(config: Dict): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const fields = inputFields(config);
  if (fields.length === 0) return [{ field: "fields", message: "Add at least one field." }];
  if (fields.length > MAX_FIELDS) problems.push({ field: "fields", message: `A form has at most ${MAX_FIELDS} fields.` });
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const at = `fields.${index}`;
    const n = index + 1;
    const fieldname = String(field.fieldname ?? "").trim();
    if (!FIELDNAME.test(fieldname)) {
      problems.push({ field: `${at}.fieldname`, message: `Field ${n}: the fieldname uses lowercase letters, digits and _ (e.g. amount).` });
    } else if (seen.has(fieldname)) {
      problems.push({ field: `${at}.fieldname`, message: `Field ${n}: ${fieldname} is used twice.` });
    }
    seen.add(fieldname);
    const type = String(field.fieldtype ?? "Data");
    if (!(INPUT_FIELD_TYPES as readonly string[]).includes(type)) {
      problems.push({ field: `${at}.fieldtype`, message: `Field ${n}: choose one of ${INPUT_FIELD_TYPES.join(", ")}.` });
    } else if (type === "Select" && names(field.options).length === 0) {
      problems.push({ field: `${at}.options`, message: `Field ${n}: list the options, one per line.` });
    }
  });
  return problems;
}

/** The answer as sent: the text of each filled field (the server converts it to the field's type),
 * Check fields as 1 or 0; empty fields are left out. */
export function answerValues(fields: RequestField[], typed: Record<string, string | boolean>): Dict {
  const out: Dict = {};
  for (const field of fields) {
    const value = typed[field.fieldname];
    if (field.fieldtype === "Check") out[field.fieldname] = value === true ? 1 : 0;
    else if (typeof value === "string" && value.trim() !== "") out[field.fieldname] = value.trim();
  }
  return out;
}

/** The request a waiting run's `waiting` describes, when a Wait for input step waits (else null). */
export function requestOf(flowRunId: string, waiting: Dict | null | undefined): InputRequest | null {
  if (!waiting || !Array.isArray(waiting.fields)) return null;
  return {
    flow_run_id: flowRunId,
    title: typeof waiting.title === "string" ? waiting.title : null,
    instructions: typeof waiting.instructions === "string" ? waiting.instructions : null,
    fields: waiting.fields.filter(isDict) as unknown as RequestField[],
  };
}
