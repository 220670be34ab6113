/** The schema editor's draft: fields being designed, their checks, and what is sent to the server. */
import { parseInput } from "./cells";
import type { AutonameMethod, CreateTableArgs, FieldSpec, FieldType, TableArgs, TableSchema } from "./dataApi";

export interface FieldDraft {
  /** Stable id of the row in the editor (not sent). */
  key: string;
  label: string;
  fieldname: string;
  /** The user typed the fieldname: it no longer follows the label. */
  fieldnameEdited: boolean;
  fieldtype: FieldType;
  options: string;
  reqd: boolean;
  unique: boolean;
  default: string;
  in_list_view: boolean;
  in_standard_filter: boolean;
  search: boolean;
  description: string;
  /** The fieldname the server has now (saved fields only): a different fieldname renames it. */
  original_fieldname?: string;
}

export interface SchemaDraft {
  table_name: string;
  description: string;
  icon: string;
  autoname_method: AutonameMethod;
  naming_field: string;
  naming_series: string;
  title_field: string;
  fields: FieldDraft[];
}

export type DraftErrors = Record<string, string>;

/** Names every record has already (Frappe's standard columns) and the grid's own key. */
export const RESERVED_FIELDNAMES = new Set([
  "name",
  "owner",
  "creation",
  "modified",
  "modified_by",
  "docstatus",
  "idx",
  "parent",
  "parentfield",
  "parenttype",
  "doctype",
  "naming_series",
  "amended_from",
  "file_list",
  "flags",
  "_user_tags",
  "_comments",
  "_assign",
  "_liked_by",
  "_seen",
  "_can_edit",
]);

const TABLE_NAME = /^[A-Za-z][A-Za-z0-9 _-]{0,57}$/;
const NAMING_SERIES = /^[A-Za-z0-9][A-Za-z0-9_/-]{0,30}\.#{3,10}$/;
const FIELDNAME = /^[a-z][a-z0-9_]{0,60}$/;

/** The fieldname a label gives (lowercase letters, digits and underscores). */
export function fieldnameFromLabel(label: string): string {
  const name = label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 61);
  return /^[0-9]/.test(name) ? `field_${name}`.slice(0, 61) : name;
}

let counter = 0;
const newKey = () => `f${Date.now().toString(36)}${(counter++).toString(36)}`;

export function emptyField(fields: FieldDraft[] = []): FieldDraft {
  let n = fields.length + 1;
  while (fields.some((f) => f.label === `Field ${n}`)) n += 1;
  const label = `Field ${n}`;
  return {
    key: newKey(),
    label,
    fieldname: fieldnameFromLabel(label),
    fieldnameEdited: false,
    fieldtype: "Data",
    options: "",
    reqd: false,
    unique: false,
    default: "",
    in_list_view: true,
    in_standard_filter: false,
    search: false,
    description: "",
  };
}

export function emptyDraft(): SchemaDraft {
  return {
    table_name: "",
    description: "",
    icon: "",
    autoname_method: "Autoincrement",
    naming_field: "",
    naming_series: "",
    title_field: "",
    fields: [],
  };
}

/** The draft of a saved table: every field remembers its current fieldname. */
export function draftFromSchema(schema: TableSchema): SchemaDraft {
  return {
    table_name: schema.table_name,
    description: schema.description ?? "",
    icon: schema.icon ?? "",
    autoname_method: schema.autoname_method,
    naming_field: schema.naming_field ?? "",
    naming_series: schema.naming_series ?? "",
    title_field: schema.title_field ?? "",
    fields: schema.fields.map((f) => ({
      key: newKey(),
      label: f.label,
      fieldname: f.fieldname ?? "",
      fieldnameEdited: true,
      fieldtype: f.fieldtype,
      options: f.options ?? "",
      reqd: Boolean(f.reqd),
      unique: Boolean(f.unique),
      default: f.default ?? "",
      in_list_view: Boolean(f.in_list_view),
      in_standard_filter: Boolean(f.in_standard_filter),
      search: Boolean(f.search),
      description: f.description ?? "",
      original_fieldname: f.fieldname,
    })),
  };
}

/** Change a field; a label change renames a fieldname the user did not type. */
export function updateField(field: FieldDraft, patch: Partial<FieldDraft>): FieldDraft {
  const next = { ...field, ...patch };
  if (patch.fieldname !== undefined) next.fieldnameEdited = true;
  else if (patch.label !== undefined && !field.fieldnameEdited) next.fieldname = fieldnameFromLabel(patch.label);
  if (patch.fieldtype !== undefined && patch.fieldtype !== field.fieldtype) {
    if (!["Select", "Link"].includes(patch.fieldtype)) next.options = "";
    // a default the new type cannot hold is dropped (a Check's default is 0 or 1)
    const parsed = next.default && patch.default === undefined ? parseInput(next.default, patch.fieldtype) : null;
    if (parsed && ("error" in parsed || (patch.fieldtype === "Check" && !["0", "1"].includes(next.default.trim())))) next.default = "";
  }
  return next;
}

/** The list with the item at `from` moved to `to`. */
export function moveItem<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1) as [T];
  next.splice(to, 0, item);
  return next;
}

export const selectOptions = (options: string): string[] =>
  options
    .split("\n")
    .map((o) => o.trim())
    .filter(Boolean);

/** Fields that can name records ("Field" naming): required and unique. */
export const namingCandidates = (fields: FieldDraft[]): FieldDraft[] => fields.filter((f) => f.reqd && f.unique);

/** Problems to fix before saving, keyed "table_name", "fields", "naming_field", "naming_series", "title_field" or "<field key>". */
export function validateDraft(draft: SchemaDraft, isNew: boolean): DraftErrors {
  const errors: DraftErrors = {};
  if (isNew) {
    const name = draft.table_name.trim();
    if (!name) errors.table_name = "Give the table a name.";
    else if (!TABLE_NAME.test(name)) errors.table_name = "Use letters, digits, spaces, - or _ (starting with a letter, at most 58 characters).";
  }
  if (!draft.fields.length) errors.fields = "Add at least one field.";
  const seen = new Map<string, string>();
  for (const f of draft.fields) {
    const fieldname = f.fieldname.trim();
    let problem = "";
    if (!f.label.trim()) problem = "Give the field a label.";
    else if (!fieldname) problem = "Give the field a fieldname.";
    else if (!FIELDNAME.test(fieldname)) problem = "The fieldname takes lowercase letters, digits and _ and starts with a letter.";
    else if (RESERVED_FIELDNAMES.has(fieldname)) problem = `"${fieldname}" is taken by every record; choose another fieldname.`;
    else if (seen.has(fieldname)) problem = `"${fieldname}" is already the fieldname of ${seen.get(fieldname)}.`;
    else if (f.fieldtype === "Select" && !selectOptions(f.options).length) problem = "List the choices, one a line.";
    else if (f.fieldtype === "Link" && !f.options.trim()) problem = "Choose what the field links to.";
    else if (f.fieldtype === "Select" && f.default && !selectOptions(f.options).includes(f.default)) problem = "The default must be one of the choices.";
    else if (f.fieldtype === "Int" && f.default && !/^-?\d+$/.test(f.default.trim())) problem = "The default must be a whole number.";
    else if (["Float", "Currency", "Percent"].includes(f.fieldtype) && f.default && !Number.isFinite(Number(f.default))) problem = "The default must be a number.";
    if (problem) errors[f.key] = problem;
    if (fieldname) seen.set(fieldname, f.label || fieldname);
  }
  const fieldnames = draft.fields.map((f) => f.fieldname);
  if (isNew && draft.autoname_method === "Field") {
    if (!draft.naming_field) errors.naming_field = "Choose the field that names each record.";
    else if (!namingCandidates(draft.fields).some((f) => f.fieldname === draft.naming_field)) errors.naming_field = "The naming field must be required and unique.";
  }
  if (isNew && draft.autoname_method === "Naming Series" && !NAMING_SERIES.test(draft.naming_series.trim())) {
    errors.naming_series = 'Write a prefix, a dot and 3 to 10 #, like "LEAD-.#####".';
  }
  if (draft.title_field && !fieldnames.includes(draft.title_field)) errors.title_field = "The title field is no longer in the table.";
  return errors;
}

function fieldSpec(f: FieldDraft): FieldSpec {
  const spec: FieldSpec = {
    fieldname: f.fieldname.trim(),
    label: f.label.trim(),
    fieldtype: f.fieldtype,
    reqd: f.reqd ? 1 : 0,
    unique: f.unique ? 1 : 0,
    in_list_view: f.in_list_view ? 1 : 0,
    in_standard_filter: f.in_standard_filter ? 1 : 0,
    search: f.search ? 1 : 0,
  };
  if (f.fieldtype === "Select") spec.options = selectOptions(f.options).join("\n");
  if (f.fieldtype === "Link") spec.options = f.options.trim();
  if (f.default.trim()) spec.default = f.default.trim();
  if (f.description.trim()) spec.description = f.description.trim();
  if (f.original_fieldname) spec.original_fieldname = f.original_fieldname;
  return spec;
}

function common(draft: SchemaDraft): TableArgs {
  const args: TableArgs = { fields: draft.fields.map(fieldSpec), description: draft.description.trim(), icon: draft.icon.trim() };
  if (draft.title_field) args.title_field = draft.title_field;
  return args;
}

/** The arguments of create_data_table. */
export function createArgs(draft: SchemaDraft): CreateTableArgs {
  const args: CreateTableArgs = { ...common(draft), table_name: draft.table_name.trim(), autoname_method: draft.autoname_method };
  if (draft.autoname_method === "Field") args.naming_field = draft.naming_field;
  if (draft.autoname_method === "Naming Series") args.naming_series = draft.naming_series.trim();
  return args;
}

/** The arguments of update_data_table (besides the table's name). */
export function updateArgs(draft: SchemaDraft): TableArgs {
  return common(draft);
}

/** The saved fields the draft no longer has: saving removes them and their values. */
export function removedFields(draft: SchemaDraft, saved: TableSchema | undefined): TableSchema["fields"] {
  const kept = new Set(draft.fields.map((f) => f.original_fieldname).filter(Boolean));
  return (saved?.fields ?? []).filter((f) => f.fieldname && !kept.has(f.fieldname));
}

/** Whether the draft differs from the saved table (none: from an empty new table) in anything saving sends. */
export function draftChanged(draft: SchemaDraft, saved: TableSchema | undefined): boolean {
  if (!saved) return JSON.stringify(createArgs(draft)) !== JSON.stringify(createArgs(emptyDraft()));
  return JSON.stringify(updateArgs(draft)) !== JSON.stringify(updateArgs(draftFromSchema(saved)));
}

/** What saving would change, in plain words, for the confirmation of removed and renamed fields. */
export function pendingChanges(draft: SchemaDraft, saved: TableSchema | undefined): string[] {
  if (!saved) return [];
  const out: string[] = removedFields(draft, saved).map((f) => `The field "${f.label}" and its values will be removed.`);
  for (const f of draft.fields) {
    if (f.original_fieldname && f.original_fieldname !== f.fieldname.trim()) out.push(`The field "${f.label}" is renamed from ${f.original_fieldname} to ${f.fieldname.trim()}; its values are kept.`);
  }
  return out;
}
