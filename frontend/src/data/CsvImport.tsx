import { useRef, useState } from "react";
import { Notice } from "../components/ui";
import { ApiError, errorMessage } from "../lib/api";
import { importedText, importProblems } from "./cells";
import { importCsv } from "./dataApi";

export interface ImportOutcome {
  ok?: string;
  problems?: string[];
}

/** Pick a CSV file and import its rows (all or nothing). */
export function CsvImport({ name, onOutcome }: { name: string; onOutcome: (outcome: ImportOutcome | null, imported: boolean) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    onOutcome(null, false);
    try {
      const { inserted } = await importCsv(name, await file.text());
      onOutcome({ ok: importedText(inserted) }, true);
    } catch (e) {
      onOutcome({ problems: e instanceof ApiError ? importProblems(e.messages) : [errorMessage(e)] }, false);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  return (
    <label className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800">
      {busy ? "Importing…" : "Import CSV"}
      <input ref={input} type="file" accept=".csv,text/csv" className="sr-only" aria-label="Import CSV" disabled={busy} onChange={(e) => void onFile(e.target.files?.[0])} />
    </label>
  );
}

/** What the last import did: how many rows came in, or each problem that stopped it. */
export function ImportResult({ outcome }: { outcome: ImportOutcome }) {
  if (outcome.ok) return <Notice message={outcome.ok} />;
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200">
      <p className="font-semibold">Nothing was imported</p>
      <ul className="mt-1 list-disc pl-5" aria-label="Import problems">
        {(outcome.problems ?? []).map((p, i) => (
          <li key={i}>{p}</li>
        ))}
      </ul>
    </div>
  );
}
