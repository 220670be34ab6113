import { useRef, useState } from "react";
import { Button, Select } from "../components/ui";
import { Dialog } from "../flows/Dialog";
import { plural } from "./cells";
import { plannedText, problemsOf } from "./csvImportText";
import { importCsv, previewCsv, type ColumnMapping, type CsvPreview, type ImportCounts, type ImportMode } from "./dataApi";

const ID = "name";

interface Props {
  name: string;
  prompted: boolean;
  fileName: string;
  content: string;
  preview: CsvPreview;
  onCancel: () => void;
  onImported: (counts: ImportCounts) => void;
}

/** The preview of a picked CSV file: its first rows as read, which field each column fills, whether rows
 * are added or update the records named by their ID; every change is checked again by a dry run. */
export function CsvImportDialog({ name, prompted, fileName, content, preview, onCancel, onImported }: Props) {
  const [mapping, setMapping] = useState<ColumnMapping>(preview.mapping);
  const [mode, setMode] = useState<ImportMode>(preview.mode);
  const [check, setCheck] = useState<CsvPreview>(preview);
  const [checking, setChecking] = useState(false);
  const [problems, setProblems] = useState<{ title: string; list: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const sequence = useRef(0);

  const recheck = async (nextMapping: ColumnMapping, nextMode: ImportMode) => {
    setMapping(nextMapping);
    setMode(nextMode);
    const n = ++sequence.current;
    setChecking(true);
    setProblems(null);
    try {
      const answer = await previewCsv(name, content, nextMapping, nextMode);
      if (n === sequence.current) setCheck(answer);
    } catch (e) {
      if (n === sequence.current) setProblems({ title: "The file cannot be imported like this", list: problemsOf(e) });
    } finally {
      if (n === sequence.current) setChecking(false);
    }
  };
  // a field picked for one column is taken from any other column
  const mapColumn = (index: number, target: string) =>
    void recheck(
      mapping.map((t, i) => (i === index ? target || null : target && t === target ? null : t)),
      mode,
    );

  const run = async () => {
    setBusy(true);
    setProblems(null);
    try {
      onImported(await importCsv(name, content, mapping, mode));
    } catch (e) {
      setProblems({ title: "Nothing was imported", list: problemsOf(e) });
      setBusy(false);
    }
  };

  const labels: Record<string, string> = { [ID]: "ID", ...Object.fromEntries(preview.fields.map((f) => [f.fieldname, f.label])) };
  const columnName = (i: number) => preview.columns[i]?.trim() || `column ${i + 1}`;
  const shown = preview.rows.length;
  const blocked = busy || checking || Boolean(problems) || check.failed_rows > 0;

  return (
    <Dialog
      wide
      title={`Import ${fileName}`}
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => void run()} disabled={blocked}>
            {busy ? "Importing…" : "Import"}
          </Button>
        </>
      }
    >
      <p className="text-sm" data-testid="import-summary">
        {plural(preview.total, "row")} in the file{shown < preview.total ? `. The first ${shown}, as they will be read:` : `, as ${preview.total === 1 ? "it" : "they"} will be read:`}
      </p>
      <div role="region" aria-label="Rows of the file" tabIndex={0} className="max-h-64 overflow-auto rounded-md border border-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-700">
        <table className="w-full text-left text-xs">
          <thead className="bg-slate-50 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
            <tr>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Row
              </th>
              {preview.columns.map((column, i) => (
                <th key={i} scope="col" className="px-2 py-1.5 font-medium">
                  {column || `(column ${i + 1})`}
                  <span className="block font-normal">{mapping[i] ? `→ ${labels[mapping[i] as string]}` : "skipped"}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {preview.rows.map((r) => (
              <tr key={r.row}>
                <td className="px-2 py-1 text-slate-600 dark:text-slate-300">{r.row}</td>
                {preview.columns.map((_c, i) => (
                  <td key={i} className={`max-w-xs whitespace-pre-line break-words px-2 py-1 align-top ${mapping[i] ? "" : "text-slate-500 line-through dark:text-slate-400"}`}>
                    {r.cells[i] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Columns</legend>
        <p className="text-xs text-slate-600 dark:text-slate-300">Each column of the file fills the field chosen for it; skipped columns are not imported.</p>
        <ul className="grid gap-2 sm:grid-cols-2">
          {preview.columns.map((_c, i) => (
            <li key={i} className="flex items-center gap-2 text-sm">
              <label htmlFor={`import-map-${i}`} className="w-1/2 truncate" title={columnName(i)}>
                {columnName(i)}
              </label>
              <Select id={`import-map-${i}`} className="w-1/2" aria-label={`Field for ${columnName(i)}`} value={mapping[i] ?? ""} onChange={(e) => mapColumn(i, e.target.value)}>
                <option value="">Skip</option>
                <option value={ID}>ID</option>
                {preview.fields.map((f) => (
                  <option key={f.fieldname} value={f.fieldname}>
                    {f.label}
                  </option>
                ))}
              </Select>
            </li>
          ))}
        </ul>
      </fieldset>

      <fieldset className="space-y-2 text-sm">
        <legend className="font-medium">Rows</legend>
        <label className="flex items-start gap-2">
          <input type="radio" name="import-mode" className="mt-1" checked={mode === "insert"} onChange={() => void recheck(mapping, "insert")} />
          <span>
            Add as new rows
            <span className="block text-xs text-slate-600 dark:text-slate-300">Every row becomes a new record{prompted ? " with the ID it gives" : "; IDs in the file are not used"}.</span>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input type="radio" name="import-mode" className="mt-1" checked={mode === "update"} onChange={() => void recheck(mapping, "update")} />
          <span>
            Update existing rows by ID
            <span className="block text-xs text-slate-600 dark:text-slate-300">
              A row whose ID is a record of this table changes that record (a row with the same values leaves it alone). A row without an ID is added as a new record.{" "}
              {prompted ? "A row with an ID the table does not have yet is added with that ID." : "A row with an ID this table does not have (for example one of another table) is not imported: it is listed as a problem."}
            </span>
          </span>
        </label>
        {mapping.includes(ID) && (
          <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="id-matches">
            {check.id_matches ? `${plural(check.id_matches, "ID")} of the file ${check.id_matches === 1 ? "is a record" : "are records"} of this table.` : "No ID of the file is a record of this table."}
          </p>
        )}
        {mode === "update" && !mapping.includes(ID) && <p className="text-xs text-amber-800 dark:text-amber-300">No column is mapped to ID: every row will be added.</p>}
      </fieldset>

      <div aria-live="polite" className="text-sm">
        {checking ? (
          <p>Checking…</p>
        ) : problems ? null : check.failed_rows > 0 ? (
          <ProblemList
            title={`${plural(check.failed_rows, "row")} ${check.failed_rows === 1 ? "has" : "have"} problems. Nothing can be imported until they are corrected in the file (or their column is skipped).`}
            problems={[...check.failed.map((f) => `Row ${f.row}: ${f.message}`), ...(check.failed_rows > check.failed.length ? ["… and more rows."] : [])]}
          />
        ) : (
          <p data-testid="import-plan">{plannedText(check)}</p>
        )}
      </div>
      {problems && <ProblemList title={problems.title} problems={problems.list} />}
    </Dialog>
  );
}

/** Problems by row ("Row 3: ..."), under a title, announced as an alert. */
export function ProblemList({ title, problems }: { title: string; problems: string[] }) {
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200">
      <p className="font-semibold">{title}</p>
      <ul className="mt-1 list-disc pl-5" aria-label="Import problems">
        {problems.map((p, i) => (
          <li key={i}>{p}</li>
        ))}
      </ul>
    </div>
  );
}
