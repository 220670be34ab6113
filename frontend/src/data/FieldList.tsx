import { useState } from "react";
import { Button, cx } from "../components/ui";
import type { FieldDraft } from "./schemaDraft";

/** The table's fields in display order: pick one to edit, drag (or use the arrows) to reorder, remove. */
export function FieldList({
  fields,
  selected,
  errors,
  onSelect,
  onMove,
  onRemove,
}: {
  fields: FieldDraft[];
  selected: string | null;
  errors: Record<string, string>;
  onSelect: (key: string) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (key: string) => void;
}) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  return (
    <ol aria-label="Fields" className="space-y-1">
      {fields.map((f, index) => (
        <li
          key={f.key}
          data-testid="schema-field"
          draggable
          onDragStart={(e) => {
            setDragging(index);
            e.dataTransfer.effectAllowed = "move";
            e.dataTransfer.setData("text/plain", f.key);
          }}
          onDragOver={(e) => {
            if (dragging === null) return;
            e.preventDefault();
            setOver(index);
          }}
          onDragLeave={() => setOver((o) => (o === index ? null : o))}
          onDrop={(e) => {
            e.preventDefault();
            if (dragging !== null) onMove(dragging, index);
            setDragging(null);
            setOver(null);
          }}
          onDragEnd={() => {
            setDragging(null);
            setOver(null);
          }}
          className={cx(
            "flex items-center gap-1 rounded-md border bg-white px-2 py-1 dark:bg-slate-900",
            selected === f.key ? "border-indigo-500 ring-1 ring-indigo-500" : "border-slate-200 dark:border-slate-700",
            over === index && dragging !== index && "border-dashed border-indigo-400",
            dragging === index && "opacity-50",
          )}
        >
          <span className="cursor-grab select-none px-1 text-slate-400" aria-hidden="true" title="Drag to reorder">
            ⋮⋮
          </span>
          <button type="button" className="min-w-0 flex-1 truncate py-1 text-left text-sm" aria-pressed={selected === f.key} aria-label={`Edit the field ${f.label || "(no label)"}`} onClick={() => onSelect(f.key)}>
            <span className="font-medium">{f.label || "(no label)"}</span>
            {errors[f.key] && (
              <span className="block text-xs text-red-600 dark:text-red-400" role="alert">
                {errors[f.key]}
              </span>
            )}
          </button>
          <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">
            {f.fieldtype}
            {f.reqd ? " · required" : ""}
          </span>
          <Button variant="ghost" className="px-1.5" aria-label={`Move ${f.label} up`} disabled={index === 0} onClick={() => onMove(index, index - 1)}>
            ↑
          </Button>
          <Button variant="ghost" className="px-1.5" aria-label={`Move ${f.label} down`} disabled={index === fields.length - 1} onClick={() => onMove(index, index + 1)}>
            ↓
          </Button>
          <Button variant="ghost" className="px-1.5" aria-label={`Remove ${f.label}`} onClick={() => onRemove(f.key)}>
            ✕
          </Button>
        </li>
      ))}
    </ol>
  );
}
