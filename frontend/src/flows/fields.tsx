/** Small form controls of the flow editor's side panels. */

import { useId, useState, type ReactNode } from "react";
import { LinkSelect } from "../components/FormFields";
import { Button, cx, Input, Select, Textarea } from "../components/ui";

export function FieldShell({ id, label, problem, help, required, children }: { id: string; label: string; problem?: string; help?: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={cx("block text-sm font-medium", problem ? "text-red-600 dark:text-red-400" : "text-slate-700 dark:text-slate-300")}>
        {required ? `${label} *` : label}
      </label>
      {children}
      {(problem || help) && <p className={cx("text-xs", problem ? "text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400")}>{problem ?? help}</p>}
    </div>
  );
}

export function TextField({
  label,
  value,
  onChange,
  problem,
  help,
  required,
  multiline,
  placeholder,
  type,
  mono,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem?: string;
  help?: string;
  required?: boolean;
  multiline?: boolean;
  placeholder?: string;
  type?: string;
  mono?: boolean;
}) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} problem={problem} help={help} required={required}>
      {multiline ? (
        <Textarea id={id} rows={4} className={mono ? "font-mono text-xs" : undefined} value={value} placeholder={placeholder} invalid={Boolean(problem)} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <Input id={id} type={type} className={mono ? "font-mono text-xs" : undefined} value={value} placeholder={placeholder} invalid={Boolean(problem)} onChange={(e) => onChange(e.target.value)} />
      )}
    </FieldShell>
  );
}

export function SelectField({
  label,
  value,
  options,
  onChange,
  problem,
  help,
  required,
}: {
  label: string;
  value: string;
  options: Array<string | [string, string]>;
  onChange: (value: string) => void;
  problem?: string;
  help?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} problem={problem} help={help} required={required}>
      <Select id={id} value={value} invalid={Boolean(problem)} onChange={(e) => onChange(e.target.value)}>
        {options.map((option) => {
          const [v, text] = Array.isArray(option) ? option : [option, option];
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </Select>
    </FieldShell>
  );
}

export function LinkField({
  label,
  doctype,
  value,
  onChange,
  problem,
  help,
  required,
}: {
  label: string;
  doctype: string;
  value: string;
  onChange: (value: string) => void;
  problem?: string;
  help?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} problem={problem} help={help} required={required}>
      <LinkSelect id={id} doctype={doctype} value={value} onChange={onChange} invalid={Boolean(problem)} />
    </FieldShell>
  );
}

/** A list of names (users, roles) typed one by one (flow editors may not list users or roles; the run checks them). */
export function NameList({ label, values, onChange, invalid, placeholder }: { label: string; values: string[]; onChange: (values: string[]) => void; invalid?: boolean; placeholder?: string }) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const add = () => {
    const name = typed.trim();
    if (name && !values.includes(name)) onChange([...values, name]);
    setTyped("");
  };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {values.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={label}>
          {values.map((name) => (
            <li key={name} className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800">
              {name}
              <button type="button" className="text-slate-500 hover:text-red-600" aria-label={`Remove ${name}`} onClick={() => onChange(values.filter((v) => v !== name))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-1">
        <Input
          id={id}
          value={typed}
          placeholder={placeholder}
          invalid={invalid}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="secondary" onClick={add} disabled={!typed.trim()} aria-label={`Add to ${label.toLowerCase()}`}>
          Add
        </Button>
      </div>
    </div>
  );
}

/** Rows of name and value (HTTP headers, query parameters). */
export function KeyValueRows({ label, rows, onChange, keyLabel = "Name", valueLabel = "Value" }: { label: string; rows: Array<[string, string]>; onChange: (rows: Array<[string, string]>) => void; keyLabel?: string; valueLabel?: string }) {
  const set = (index: number, at: 0 | 1, text: string) => onChange(rows.map((row, i) => (i === index ? ((at === 0 ? [text, row[1]] : [row[0], text]) as [string, string]) : row)));
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</legend>
      {rows.map((row, index) => (
        <div key={index} className="flex gap-1">
          <Input aria-label={`${label} ${keyLabel.toLowerCase()} ${index + 1}`} placeholder={keyLabel} value={row[0]} onChange={(e) => set(index, 0, e.target.value)} />
          <Input aria-label={`${label} ${valueLabel.toLowerCase()} ${index + 1}`} placeholder={valueLabel} value={row[1]} onChange={(e) => set(index, 1, e.target.value)} />
          <Button variant="ghost" aria-label={`Remove ${label.toLowerCase()} row ${index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
            ×
          </Button>
        </div>
      ))}
      <Button variant="secondary" onClick={() => onChange([...rows, ["", ""]])}>
        Add {label.toLowerCase().replace(/s$/, "")}
      </Button>
    </fieldset>
  );
}
