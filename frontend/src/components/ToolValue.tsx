import { useState, type ReactNode } from "react";
import { FOLD_LINES, foldText, jsonLines, parseToolValue, sizeLabel } from "../lib/toolValue";

/** Objects and arrays of a large value start folded below this depth (a small one shows whole). */
const OPEN_DEPTH_LARGE = 1;
const LONG_STRING = 300;

function Scalar({ value }: { value: unknown }) {
  if (typeof value === "string") return <LongString text={value} />;
  if (value === null) return <span className="text-slate-600 dark:text-slate-400">null</span>;
  if (typeof value === "number") return <span className="text-sky-800 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-violet-800 dark:text-violet-300">{String(value)}</span>;
  return <span>{JSON.stringify(value)}</span>;
}

/** A JSON string; a long one shows its start and a button for the rest. */
function LongString({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const quoted = JSON.stringify(text);
  if (quoted.length <= LONG_STRING || open) return <span className="break-words text-emerald-800 dark:text-emerald-300">{quoted}</span>;
  return (
    <span className="break-words text-emerald-800 dark:text-emerald-300">
      {quoted.slice(0, LONG_STRING)}…{" "}
      <button type="button" className="text-indigo-700 underline dark:text-indigo-300" onClick={() => setOpen(true)}>
        Show all {quoted.length} characters
      </button>
    </span>
  );
}

function Key({ name }: { name: string | number | null }) {
  if (name === null) return null;
  return <span className="text-slate-700 dark:text-slate-300">{typeof name === "number" ? `${name}: ` : `${JSON.stringify(name)}: `}</span>;
}

/** One member of a JSON value: a scalar on its line, or an object/array that folds (<details>). */
function JsonNode({ name, value, depth, openDepth, last }: { name: string | number | null; value: unknown; depth: number; openDepth: number; last: boolean }) {
  const comma = last ? "" : ",";
  if (value === null || typeof value !== "object") {
    return (
      <div>
        <Key name={name} />
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  const entries: Array<[string | number, unknown]> = isArray ? (value as unknown[]).map((v, i) => [i, v]) : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0)
    return (
      <div>
        <Key name={name} />
        {open}
        {close}
        {comma}
      </div>
    );
  return (
    <details open={depth < openDepth} data-testid="json-node">
      <summary className="cursor-pointer list-inside marker:text-slate-500">
        <Key name={name} />
        {open}
        <span className="text-slate-600 dark:text-slate-400 [details[open]>summary>&]:hidden">
          {" "}
          … {sizeLabel(value as object)} {close}
          {comma}
        </span>
      </summary>
      <div className="border-l border-slate-200 pl-4 dark:border-slate-700">
        {entries.map(([key, child], i) => (
          <JsonNode key={String(key)} name={isArray ? null : key} value={child} depth={depth + 1} openDepth={openDepth} last={i === entries.length - 1} />
        ))}
      </div>
      <div>
        {close}
        {comma}
      </div>
    </details>
  );
}

/** Plain text, folded to its first lines when long, with Show all / Show less. */
function FoldedText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const fold = foldText(text);
  return (
    <>
      <span className="whitespace-pre-wrap break-words">{fold && !open ? fold.head : text}</span>
      {fold && (
        <button type="button" className="mt-1 block text-indigo-700 underline dark:text-indigo-300" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "Show less" : fold.hiddenLines > 0 ? `Show all (${fold.hiddenLines} more lines)` : `Show all (${fold.hiddenChars} more characters)`}
        </button>
      )}
    </>
  );
}

/** A tool call's arguments or result: JSON indented with foldable objects and arrays (a large value starts
 * folded below its first level), text folded to its first lines when long. The box scrolls with the keyboard too. */
export function ToolValue({ value, label, testid }: { value: unknown; label: string; testid?: string }) {
  const parsed = parseToolValue(value);
  let body: ReactNode;
  if (parsed.kind === "text") body = <FoldedText text={parsed.text} />;
  else {
    const openDepth = jsonLines(parsed.value) > FOLD_LINES * 2 ? OPEN_DEPTH_LARGE : Number.POSITIVE_INFINITY;
    body = <JsonNode name={null} value={parsed.value} depth={0} openDepth={openDepth} last />;
  }
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid={testid}
      data-format={parsed.kind}
      className="max-h-80 overflow-auto rounded bg-white p-2 font-mono text-xs dark:bg-slate-900"
    >
      {body}
    </div>
  );
}
