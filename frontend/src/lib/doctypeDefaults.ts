/** The default values a DocType's JSON (huf/huf/doctype/<name>/<name>.json) gives its fields, typed as the
 * server stores them: what a new record or child row must hold so that the form shows what will be saved. */

export interface DocTypeMeta {
  fields: Array<{ fieldname: string; fieldtype: string; default?: string | number | null }>;
}

const INTEGER_TYPES = new Set(["Int", "Check"]);
const NUMBER_TYPES = new Set(["Float", "Currency", "Percent"]);
/** Defaults the server works out when saving (the user, today, the time...): left to it. */
const COMPUTED = /^(__user|today|now|:.*)$/i;

/** `{fieldname: default}` of every field that has a literal default (numbers for Int, Check, Float...). */
export function docTypeDefaults(meta: DocTypeMeta): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const field of meta.fields) {
    const value = field.default;
    if (value === undefined || value === null || value === "" || COMPUTED.test(String(value))) continue;
    if (INTEGER_TYPES.has(field.fieldtype)) out[field.fieldname] = Math.trunc(Number(value)) || 0;
    else if (NUMBER_TYPES.has(field.fieldtype)) out[field.fieldname] = Number(value) || 0;
    else out[field.fieldname] = String(value);
  }
  return out;
}
