/** The server calls of the Data pages: the spec's table design endpoints (huf.huf.doctype.huf_data_table.api)
 * and Huf's list, records, CSV and table tools (huf.api.data_tables). */
import { call, type Dict } from "../lib/api";

const API = "huf.huf.doctype.huf_data_table.api";
const TABLES = "huf.api.data_tables";

/** A data table column's field type: one of the boot data's `data_field_types` (lib/boot.ts `dataFieldTypes`). */
export type FieldType = string;

export const AUTONAME_METHODS = ["Autoincrement", "Hash", "Field", "Naming Series", "Prompt"] as const;
export type AutonameMethod = (typeof AUTONAME_METHODS)[number];

/** One field as the server takes and returns it. */
export interface FieldSpec {
  fieldname?: string;
  label: string;
  fieldtype: FieldType;
  options?: string;
  reqd?: 0 | 1;
  unique?: 0 | 1;
  default?: string;
  in_list_view?: 0 | 1;
  in_standard_filter?: 0 | 1;
  search?: 0 | 1;
  description?: string;
  original_fieldname?: string;
}

export interface TableSummary {
  name: string;
  table_name: string;
  doctype_name: string;
  description: string | null;
  icon: string | null;
  field_count: number;
  record_count: number;
  modified: string;
}

export interface TableRights {
  manage: boolean;
  create: boolean;
  view_all: boolean;
  edit_all: boolean;
  edit_own: boolean;
}

export interface TableSchema {
  name: string;
  table_name: string;
  doctype_name: string;
  description: string | null;
  icon: string | null;
  autoname_method: AutonameMethod;
  naming_field: string | null;
  naming_series: string | null;
  title_field: string | null;
  fields: FieldSpec[];
  record_count: number;
  can: TableRights;
}

export interface Column {
  fieldname: string;
  label: string;
  fieldtype: FieldType;
  options: string | null;
}

export type RecordRow = Dict & { name: string; owner: string; modified: string; _can_edit: boolean | 0 | 1 };

export type ApiFilter = [string, string, unknown];

export interface RecordsPage {
  columns: Column[];
  rows: RecordRow[];
  total: number;
  start: number;
  page_length: number;
  can_create: boolean;
}

export interface RecordsQuery {
  filters?: ApiFilter[];
  order_by?: string;
  search?: string;
}

export interface TableArgs {
  fields: FieldSpec[];
  description?: string;
  icon?: string;
  title_field?: string;
}

export interface CreateTableArgs extends TableArgs {
  table_name: string;
  autoname_method: AutonameMethod;
  naming_field?: string;
  naming_series?: string;
}

export const TOOL_ACTIONS = ["list", "get", "create", "update", "delete"] as const;
export type ToolAction = (typeof TOOL_ACTIONS)[number];

export const tablesKey = ["data-tables"];
export const schemaKey = (name: string) => ["data-table-schema", name];
export const recordsKey = (name: string) => ["data-table-records", name];

export function listDataTables(): Promise<TableSummary[]> {
  return call<TableSummary[]>(`${TABLES}.list_data_tables`, {}, "GET");
}

export function getTableRecordCounts(names: string[]): Promise<Record<string, number>> {
  return call<Record<string, number>>(`${API}.get_table_record_counts`, { names }, "GET");
}

export function getTableSchema(name: string): Promise<TableSchema> {
  return call<TableSchema>(`${API}.get_table_schema`, { name }, "GET");
}

export function createDataTable(args: CreateTableArgs): Promise<TableSchema> {
  return call<TableSchema>(`${API}.create_data_table`, { ...args });
}

export function updateDataTable(name: string, args: TableArgs): Promise<TableSchema> {
  return call<TableSchema>(`${API}.update_data_table`, { name, ...args });
}

export function deleteDataTable(name: string, confirmName: string): Promise<{ deleted: string }> {
  return call<{ deleted: string }>(`${API}.delete_data_table`, { name, confirm_name: confirmName });
}

export function getRecords(name: string, query: RecordsQuery & { start: number; page_length: number }): Promise<RecordsPage> {
  return call<RecordsPage>(`${TABLES}.get_records`, { name, ...query }, "GET");
}

export function saveRecord(name: string, values: Dict, record?: string | number): Promise<RecordRow> {
  // record names are numbers when the table numbers its records; the server takes text
  return call<RecordRow>(`${TABLES}.save_record`, record !== undefined ? { name, values, record: String(record) } : { name, values });
}

export function deleteRecords(name: string, records: Array<string | number>): Promise<{ deleted: number }> {
  return call<{ deleted: number }>(`${TABLES}.delete_records`, { name, records: records.map(String) });
}

/** How an import treats the rows: each a new record, or the record named in its ID column changed. */
export type ImportMode = "insert" | "update";

/** One entry per column of the file: a fieldname, "name" (the record's ID) or null (skipped). */
export type ColumnMapping = Array<string | null>;

export interface ImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** What a dry run of an import answers: the file as read, the mapping and mode, what would happen. */
export interface CsvPreview extends ImportCounts {
  columns: string[];
  mapping: ColumnMapping;
  fields: Array<{ fieldname: string; label: string }>;
  rows: Array<{ row: number; cells: string[] }>;
  total: number;
  id_matches: number;
  mode: ImportMode;
  suggested_mode: ImportMode;
  failed: Array<{ row: number; message: string }>;
  failed_rows: number;
}

/** Check a CSV file without importing it; without mapping and mode the server suggests both. */
export function previewCsv(name: string, content: string, mapping?: ColumnMapping, mode?: ImportMode): Promise<CsvPreview> {
  return call<CsvPreview>(`${TABLES}.import_csv`, { name, content, dry_run: 1, ...(mapping ? { mapping } : {}), ...(mode ? { mode } : {}) });
}

/** Import a CSV file (all or nothing) with the mapping and mode chosen in the preview. */
export function importCsv(name: string, content: string, mapping: ColumnMapping, mode: ImportMode): Promise<ImportCounts> {
  return call<ImportCounts>(`${TABLES}.import_csv`, { name, content, mapping, mode });
}

/** The address of the CSV download of the records the grid shows (all pages). */
export function exportCsvUrl(name: string, query: RecordsQuery): string {
  const params = new URLSearchParams({ name });
  if (query.filters?.length) params.set("filters", JSON.stringify(query.filters));
  if (query.order_by) params.set("order_by", query.order_by);
  if (query.search) params.set("search", query.search);
  return `/api/method/${TABLES}.export_csv?${params.toString()}`;
}

export function createTableTools(name: string, agent: string | null, actions: ToolAction[]): Promise<{ tools: string[]; agent: string | null }> {
  return call<{ tools: string[]; agent: string | null }>(`${TABLES}.create_table_tools`, { name, agent: agent || null, actions });
}
