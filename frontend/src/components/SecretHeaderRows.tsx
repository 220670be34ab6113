import { hasSavedSecret, shownSecret, typeSecret, type SecretRow } from "../lib/secretRows";
import { Button, Input } from "./ui";

export const SAVED_PLACEHOLDER = "Saved — type to replace";

/** Header rows (name + secret value) of a tool or MCP server; a saved value is never shown, only replaced. */
export function SecretHeaderRows({
  title,
  help,
  rows,
  onChange,
  readOnly,
  keyField,
  valueField,
}: {
  title: string;
  help?: string;
  rows: SecretRow[];
  onChange: (rows: SecretRow[]) => void;
  readOnly: boolean;
  keyField: string;
  valueField: string;
}) {
  const update = (i: number, row: SecretRow) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <div className="space-y-2">
      <h3 className="font-medium">{title}</h3>
      {help && <p className="text-xs text-slate-500">{help}</p>}
      {rows.length === 0 && <p className="text-sm text-slate-500">No headers.</p>}
      {rows.map((row, i) => (
        <div key={String(row.name ?? i)} className="grid grid-cols-[1fr_1fr_auto] gap-2" data-testid="header-row">
          <Input
            aria-label={`Header name ${i + 1}`}
            placeholder="Header name"
            value={String(row[keyField] ?? "")}
            readOnly={readOnly}
            onChange={(e) => update(i, { ...row, [keyField]: e.target.value })}
          />
          <Input
            aria-label={`Header value ${i + 1}`}
            type="password"
            autoComplete="new-password"
            placeholder={hasSavedSecret(row, valueField) ? SAVED_PLACEHOLDER : "Value"}
            value={shownSecret(row, valueField)}
            readOnly={readOnly}
            onChange={(e) => update(i, typeSecret(row, valueField, e.target.value))}
          />
          {!readOnly && (
            <Button variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Remove
            </Button>
          )}
        </div>
      ))}
      {!readOnly && (
        <Button variant="secondary" onClick={() => onChange([...rows, { [keyField]: "", [valueField]: "" }])}>
          Add header
        </Button>
      )}
    </div>
  );
}
