import { useRef, useState } from "react";
import { Notice } from "../components/ui";
import { CsvImportDialog, ProblemList } from "./CsvImportDialog";
import { importedText, problemsOf } from "./csvImportText";
import { previewCsv, type CsvPreview } from "./dataApi";

export interface ImportOutcome {
  ok?: string;
  problems?: string[];
}

/** Pick a CSV file: it is checked by the server (a dry run) and shown in a preview dialog with its
 * column mapping and mode; nothing is imported until Import is pressed there. */
export function CsvImport({ name, prompted, onOutcome }: { name: string; prompted: boolean; onOutcome: (outcome: ImportOutcome | null, imported: boolean) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [picked, setPicked] = useState<{ fileName: string; content: string; preview: CsvPreview } | null>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setReading(true);
    onOutcome(null, false);
    try {
      const content = await file.text();
      setPicked({ fileName: file.name, content, preview: await previewCsv(name, content) });
    } catch (e) {
      onOutcome({ problems: problemsOf(e) }, false);
    } finally {
      setReading(false);
      if (input.current) input.current.value = "";
    }
  };
  return (
    <>
      <label className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800">
        {reading ? "Reading…" : "Import CSV"}
        <input ref={input} type="file" accept=".csv,text/csv" className="sr-only" aria-label="Import CSV" disabled={reading} onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {picked && (
        <CsvImportDialog
          name={name}
          prompted={prompted}
          {...picked}
          onCancel={() => setPicked(null)}
          onImported={(counts) => {
            setPicked(null);
            onOutcome({ ok: importedText(counts) }, true);
          }}
        />
      )}
    </>
  );
}

/** What the last import did, or each problem that stopped a file from being read. */
export function ImportResult({ outcome }: { outcome: ImportOutcome }) {
  if (outcome.ok) return <Notice message={outcome.ok} />;
  return <ProblemList title="Nothing was imported" problems={outcome.problems ?? []} />;
}
