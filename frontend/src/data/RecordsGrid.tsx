import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { Link, useParams } from "react-router-dom";
import { Button, ErrorBanner, Input, PageHeader, Select, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { useConfirm } from "../lib/confirm";
import { CellEditor } from "./CellEditor";
import { cellText, deleteQuestion, editText, parseInput, plural, rowValues } from "./cells";
import { CsvImport, ImportResult, type ImportOutcome } from "./CsvImport";
import { deleteRecords, exportCsvUrl, getRecords, getTableSchema, recordsKey, saveRecord, schemaKey, type Column, type RecordRow } from "./dataApi";
import { FilterBar } from "./FilterBar";
import { orderBy, pageInfo, toApiFilters, toggleSort, type FilterRow, type Sort } from "./gridQuery";

const PAGE_SIZES = [20, 50, 100, 500];

interface Editing {
  record: string;
  fieldname: string;
  text: string;
  error?: string;
}

/** /huf/data/:name: the records of a table, with filters, sorting, inline editing, CSV in and out. */
export default function RecordsGrid() {
  const { name = "" } = useParams();
  const queryClient = useQueryClient();
  const schema = useQuery({ queryKey: schemaKey(name), queryFn: () => getTableSchema(name) });
  const [filterRows, setFilterRows] = useState<FilterRow[]>([]);
  const [sort, setSort] = useState<Sort | null>(null);
  const [searchText, setSearchText] = useState("");
  const search = useDeferredValue(searchText.trim());
  const [start, setStart] = useState(0);
  const [pageLength, setPageLength] = useState(50);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [newRow, setNewRow] = useState<{ texts: Record<string, string>; newName: string; errors: Record<string, string>; error?: string } | null>(null);
  const [message, setMessage] = useState<{ error?: string; ok?: string } | null>(null);
  const [imported, setImported] = useState<ImportOutcome | null>(null);
  const [busy, setBusy] = useState(false);

  const fieldColumns: Column[] = (schema.data?.fields ?? []).map((f) => ({ fieldname: f.fieldname ?? "", label: f.label, fieldtype: f.fieldtype, options: f.options ?? null }));
  const filters = toApiFilters(filterRows, fieldColumns);
  const query = { filters, order_by: orderBy(sort), search: search || undefined };
  const records = useQuery({
    queryKey: [...recordsKey(name), query, start, pageLength],
    queryFn: () => getRecords(name, { ...query, start, page_length: pageLength }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recordsKey(name) });
  const columns = records.data?.columns ?? [];
  const rows = records.data?.rows ?? [];
  const types = Object.fromEntries(columns.map((c) => [c.fieldname, c.fieldtype]));
  const tableName = schema.data?.table_name ?? name;
  const prompted = schema.data?.autoname_method === "Prompt";
  const info = pageInfo(records.data?.start ?? start, pageLength, rows.length, records.data?.total ?? 0);
  const resetPage = <T,>(setter: (v: T) => void) => (v: T) => {
    setter(v);
    setStart(0);
    setSelected([]);
  };

  const saveCell = async (row: RecordRow, column: Column) => {
    if (!editing) return;
    const parsed = parseInput(editing.text, column.fieldtype);
    if ("error" in parsed) return setEditing({ ...editing, error: parsed.error });
    setBusy(true);
    try {
      await saveRecord(name, { [column.fieldname]: parsed.value }, row.name);
      setEditing(null);
      setMessage(null);
      refresh();
    } catch (e) {
      setEditing({ ...editing, error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const saveNewRow = async () => {
    if (!newRow) return;
    const { values, errors } = rowValues(newRow.texts, types);
    if (Object.keys(errors).length) return setNewRow({ ...newRow, errors });
    if (prompted) values.name = newRow.newName.trim();
    setBusy(true);
    try {
      const saved = await saveRecord(name, values);
      setNewRow(null);
      setMessage({ ok: `Record ${saved.name} added.` });
      refresh();
    } catch (e) {
      setNewRow({ ...newRow, errors: {}, error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const removeSelected = async () => {
    setBusy(true);
    try {
      const { deleted } = await deleteRecords(name, selected);
      setMessage({ ok: `Deleted ${plural(deleted, "record")}.` });
      setSelected([]);
      refresh();
    } catch (e) {
      setMessage({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  const confirm = useConfirm();
  const askDelete = async () => {
    const n = selected.length;
    if (await confirm({ title: "Delete records", message: deleteQuestion(n), confirmLabel: `Delete ${plural(n, "record")}`, destructive: true })) await removeSelected();
  };

  const canCreate = Boolean(records.data?.can_create);
  const allSelected = rows.length > 0 && rows.every((r) => selected.includes(r.name));
  const sortHeader = (fieldname: string, label: string) => {
    const active = sort?.fieldname === fieldname ? sort.direction : null;
    return (
      <th key={fieldname} className="px-3 py-2 font-medium" aria-sort={active === "asc" ? "ascending" : active === "desc" ? "descending" : "none"}>
        <button type="button" className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-slate-100" aria-label={`Sort by ${label}`} onClick={() => resetPage(setSort)(toggleSort(sort, fieldname))}>
          {label}
          <span aria-hidden="true">{active === "asc" ? "▲" : active === "desc" ? "▼" : ""}</span>
        </button>
      </th>
    );
  };

  return (
    <div className="max-w-7xl space-y-4">
      <PageHeader
        title={tableName}
        description={schema.data?.description ?? undefined}
        actions={
          <>
            <Link className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800" to="/data">
              All tables
            </Link>
            {schema.data?.can.manage && (
              <Link className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800" to={`/data/${encodeURIComponent(name)}/schema`}>
                Edit fields
              </Link>
            )}
          </>
        }
      />
      <div className="flex flex-wrap items-center gap-2">
        {canCreate && (
          <Button onClick={() => setNewRow({ texts: {}, newName: "", errors: {} })} disabled={Boolean(newRow)}>
            Add row
          </Button>
        )}
        {canCreate && <CsvImport name={name} prompted={prompted} onOutcome={(o, done) => (setImported(o), done && refresh())} />}
        <a className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800" href={exportCsvUrl(name, query)} download={`${tableName}.csv`}>
          Export CSV
        </a>
        {selected.length > 0 && (
          <Button variant="danger" onClick={() => void askDelete()} disabled={busy}>
            Delete selected ({selected.length})
          </Button>
        )}
        <div className="ml-auto w-64">
          <Input aria-label="Search records" placeholder="Search records…" value={searchText} onChange={(e) => resetPage(setSearchText)(e.target.value)} />
        </div>
      </div>
      {imported && <ImportResult outcome={imported} />}
      {message?.ok && (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {message.ok}
        </p>
      )}
      {message?.error && <ErrorBanner message={message.error} />}
      {fieldColumns.length > 0 && <FilterBar columns={fieldColumns} rows={filterRows} onChange={resetPage(setFilterRows)} />}
      {records.isLoading ? (
        <Spinner />
      ) : records.error ? (
        <ErrorBanner title="The records could not be loaded" message={errorMessage(records.error)} />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
          <table className="w-full text-left text-sm" aria-label={`Records of ${tableName}`}>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500 dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400">
              <tr>
                <th className="w-8 px-3 py-2">
                  <input type="checkbox" aria-label="Select all records on this page" checked={allSelected} onChange={(e) => setSelected(e.target.checked ? rows.map((r) => r.name) : [])} />
                </th>
                {sortHeader("name", "ID")}
                {columns.map((c) => sortHeader(c.fieldname, c.label))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {newRow && (
                <tr data-testid="new-row" className="bg-indigo-50/50 dark:bg-indigo-950/30">
                  <td className="px-3 py-2 align-top" />
                  <td className="px-3 py-2 align-top">
                    {prompted ? <Input aria-label="New ID" value={newRow.newName} onChange={(e) => setNewRow({ ...newRow, newName: e.target.value })} /> : <span className="text-xs text-slate-500">new</span>}
                  </td>
                  {columns.map((c, i) => (
                    <td key={c.fieldname} className="px-3 py-2 align-top">
                      <CellEditor
                        column={c}
                        label={`New ${c.label}`}
                        autoFocus={i === 0 && !prompted}
                        value={newRow.texts[c.fieldname] ?? ""}
                        invalid={Boolean(newRow.errors[c.fieldname])}
                        onChange={(v) => setNewRow({ ...newRow, texts: { ...newRow.texts, [c.fieldname]: v } })}
                        onSave={() => void saveNewRow()}
                        onCancel={() => setNewRow(null)}
                      />
                      {newRow.errors[c.fieldname] && <p className="text-xs text-red-600">{newRow.errors[c.fieldname]}</p>}
                    </td>
                  ))}
                </tr>
              )}
              {newRow && (
                <tr>
                  <td colSpan={columns.length + 2} className="px-3 py-2">
                    <div className="flex items-center gap-2">
                      <Button onClick={() => void saveNewRow()} disabled={busy}>
                        Save row
                      </Button>
                      <Button variant="secondary" onClick={() => setNewRow(null)}>
                        Cancel
                      </Button>
                      {newRow.error && (
                        <span role="alert" className="text-sm text-red-600 dark:text-red-400">
                          {newRow.error}
                        </span>
                      )}
                    </div>
                  </td>
                </tr>
              )}
              {rows.map((row) => {
                const editable = Boolean(row._can_edit);
                return (
                  <tr key={row.name} data-testid="record-row" aria-label={`Record ${row.name}`}>
                    <td className="px-3 py-2 align-top">
                      <input
                        type="checkbox"
                        aria-label={`Select record ${row.name}`}
                        checked={selected.includes(row.name)}
                        onChange={(e) => setSelected(e.target.checked ? [...selected, row.name] : selected.filter((n) => n !== row.name))}
                      />
                    </td>
                    <td className="px-3 py-2 align-top font-mono text-xs text-slate-500">{row.name}</td>
                    {columns.map((c) => {
                      const active = editing?.record === row.name && editing.fieldname === c.fieldname;
                      const text = cellText(row[c.fieldname], c.fieldtype);
                      return (
                        <td key={c.fieldname} className="px-3 py-2 align-top" data-fieldname={c.fieldname}>
                          {active && editing ? (
                            <>
                              <CellEditor
                                column={c}
                                label={`${c.label} of ${row.name}`}
                                autoFocus
                                value={editing.text}
                                invalid={Boolean(editing.error)}
                                onChange={(v) => setEditing({ ...editing, text: v, error: undefined })}
                                onSave={() => void saveCell(row, c)}
                                onCancel={() => setEditing(null)}
                              />
                              {editing.error && (
                                <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                                  {editing.error}
                                </p>
                              )}
                            </>
                          ) : editable ? (
                            <button
                              type="button"
                              className="block min-h-[1.5rem] w-full rounded px-1 text-left hover:bg-slate-100 focus-visible:outline-offset-[-2px] dark:hover:bg-slate-800"
                              aria-label={`Edit ${c.label} of ${row.name}: ${text || "empty"}`}
                              onClick={() => setEditing({ record: row.name, fieldname: c.fieldname, text: editText(row[c.fieldname], c.fieldtype) })}
                            >
                              {text}
                            </button>
                          ) : (
                            <span className="block px-1">{text}</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
              {!rows.length && !newRow && (
                <tr>
                  <td colSpan={columns.length + 2} className="px-3 py-6 text-center text-slate-500">
                    {filters.length || search ? "No records match." : "No records yet."}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Pages" className="flex flex-wrap items-center gap-2 text-sm">
        <span data-testid="page-info">{info.label}</span>
        <Button variant="secondary" disabled={!info.hasPrevious} onClick={() => setStart(info.previousStart)}>
          Previous
        </Button>
        <Button variant="secondary" disabled={!info.hasNext} onClick={() => setStart(info.nextStart)}>
          Next
        </Button>
        <label className="ml-2 flex items-center gap-1 whitespace-nowrap">
          Rows per page
          <Select className="w-20" value={pageLength} onChange={(e) => resetPage(setPageLength)(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </label>
      </nav>
    </div>
  );
}
