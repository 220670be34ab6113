import { Button, Input, Select } from "../components/ui";
import type { Column } from "./dataApi";
import { OPERATORS, type FilterRow, type Operator } from "./gridQuery";

let nextId = 1;

/** The grid's filter rows: field, operator, value. */
export function FilterBar({ columns, rows, onChange }: { columns: Column[]; rows: FilterRow[]; onChange: (rows: FilterRow[]) => void }) {
  const update = (id: number, patch: Partial<FilterRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <div className="space-y-2" role="group" aria-label="Filters">
      {rows.map((r, i) => (
        <div key={r.id} className="flex flex-wrap items-center gap-2" data-testid="filter-row">
          <Select aria-label={`Filter ${i + 1} field`} className="w-44" value={r.fieldname} onChange={(e) => update(r.id, { fieldname: e.target.value })}>
            <option value="">Field…</option>
            {columns.map((c) => (
              <option key={c.fieldname} value={c.fieldname}>
                {c.label}
              </option>
            ))}
          </Select>
          <Select aria-label={`Filter ${i + 1} operator`} className="w-44" value={r.operator} onChange={(e) => update(r.id, { operator: e.target.value as Operator, value: e.target.value === "is" ? "set" : r.value })}>
            {OPERATORS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
          {r.operator === "is" ? (
            <Select aria-label={`Filter ${i + 1} value`} className="w-44" value={r.value} onChange={(e) => update(r.id, { value: e.target.value })}>
              <option value="set">set</option>
              <option value="not set">not set</option>
            </Select>
          ) : (
            <Input
              aria-label={`Filter ${i + 1} value`}
              className="w-56"
              value={r.value}
              placeholder={r.operator === "in" || r.operator === "not in" ? "a, b, c" : "Value"}
              onChange={(e) => update(r.id, { value: e.target.value })}
            />
          )}
          <Button variant="ghost" aria-label={`Remove filter ${i + 1}`} onClick={() => onChange(rows.filter((x) => x.id !== r.id))}>
            ✕
          </Button>
        </div>
      ))}
      <Button variant="secondary" onClick={() => onChange([...rows, { id: nextId++, fieldname: columns[0]?.fieldname ?? "", operator: "=", value: "" }])}>
        Add filter
      </Button>
    </div>
  );
}
