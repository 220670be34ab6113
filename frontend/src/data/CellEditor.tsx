import { useEffect, useRef, type KeyboardEvent } from "react";
import { cx } from "../components/ui";
import { inputKind } from "./cells";
import type { Column } from "./dataApi";
import { selectOptions } from "./schemaDraft";

const box =
  "w-full min-w-[8rem] rounded border border-indigo-400 bg-white px-1.5 py-1 text-sm focus:outline-none focus:ring-1 focus:ring-indigo-500 dark:bg-slate-900";

/** The input of one value: Enter saves (Ctrl+Enter in long text), Escape cancels. */
export function CellEditor({
  column,
  value,
  label,
  autoFocus,
  invalid,
  onChange,
  onSave,
  onCancel,
}: {
  column: Column;
  value: string;
  label: string;
  autoFocus?: boolean;
  invalid?: boolean;
  onChange: (value: string) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement>(null);
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  const kind = inputKind(column.fieldtype);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    } else if (e.key === "Enter" && (kind !== "textarea" || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSave();
    }
  };
  const common = { ref, "aria-label": label, "aria-invalid": invalid || undefined, onKeyDown, className: cx(box, invalid && "border-red-500 ring-1 ring-red-500") };
  if (kind === "checkbox") {
    return <input {...common} type="checkbox" className="h-4 w-4" checked={value === "1"} onChange={(e) => onChange(e.target.checked ? "1" : "0")} />;
  }
  if (kind === "select") {
    return (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="" />
        {selectOptions(column.options ?? "").map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  if (kind === "textarea") return <textarea {...common} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />;
  return <input {...common} type={kind} step={kind === "number" ? "any" : kind === "datetime-local" || kind === "time" ? 1 : undefined} value={value} onChange={(e) => onChange(e.target.value)} />;
}
