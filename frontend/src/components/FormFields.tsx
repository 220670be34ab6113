import { useQuery } from "@tanstack/react-query";
import { getList } from "../lib/api";
import type { FieldDef } from "../lib/forms";
import { Field, Input, Select, Textarea, Toggle } from "./ui";

export type Doc = Record<string, unknown>;

/** A dropdown of the records of `doctype` (only those the user can see). */
export function LinkSelect({
  doctype,
  value,
  onChange,
  id,
  invalid,
  disabled,
  filters,
  placeholder = "Select…",
}: {
  doctype: string;
  value: string;
  onChange: (value: string) => void;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  filters?: Record<string, unknown>;
  placeholder?: string;
}) {
  const { data = [] } = useQuery({
    queryKey: ["options", doctype, filters ?? null],
    queryFn: () => getList<{ name: string }>(doctype, { fields: ["name"], filters, order_by: "name asc", limit: 500 }),
  });
  const names = data.map((r) => r.name);
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} invalid={invalid} disabled={disabled}>
      <option value="">{placeholder}</option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </Select>
  );
}

export function FormFields({
  fields,
  doc,
  onChange,
  invalid = [],
  readOnly = false,
  idPrefix = "f",
}: {
  fields: FieldDef[];
  doc: Doc;
  onChange: (fieldname: string, value: unknown) => void;
  invalid?: string[];
  readOnly?: boolean;
  idPrefix?: string;
}) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {fields
        .filter((f) => !f.showIf || f.showIf(doc))
        .map((f) => {
          const id = `${idPrefix}-${f.fieldname}`;
          const bad = invalid.includes(f.fieldname);
          const value = doc[f.fieldname];
          const wide = f.type === "text" || f.type === "code";
          let control;
          switch (f.type) {
            case "check":
              return (
                <div key={f.fieldname} className="md:col-span-2">
                  <Toggle checked={Boolean(value)} onChange={(v) => onChange(f.fieldname, v ? 1 : 0)} label={f.label} disabled={readOnly || f.readOnly} />
                  {f.help && <p className="ml-11 text-xs text-slate-500 dark:text-slate-400">{f.help}</p>}
                </div>
              );
            case "select":
              control = (
                <Select id={id} value={String(value ?? "")} onChange={(e) => onChange(f.fieldname, e.target.value)} invalid={bad} disabled={readOnly || f.readOnly}>
                  {(f.options ?? []).map((o) => (
                    <option key={o} value={o}>
                      {f.optionLabels?.[o] ?? (o || "—")}
                    </option>
                  ))}
                </Select>
              );
              break;
            case "link":
              control = (
                <LinkSelect id={id} doctype={f.linkTo ?? ""} filters={f.linkFilters?.(doc)} value={String(value ?? "")} onChange={(v) => onChange(f.fieldname, v)} invalid={bad} disabled={readOnly || f.readOnly} />
              );
              break;
            case "text":
            case "code":
              control = (
                <Textarea
                  id={id}
                  rows={f.type === "code" ? 10 : 3}
                  className={f.type === "code" ? "font-mono" : undefined}
                  value={String(value ?? "")}
                  onChange={(e) => onChange(f.fieldname, e.target.value)}
                  invalid={bad}
                  readOnly={readOnly || f.readOnly}
                />
              );
              break;
            case "int":
            case "float":
              control = (
                <Input
                  id={id}
                  type="number"
                  step={f.step ?? (f.type === "int" ? 1 : "any")}
                  min={f.min}
                  max={f.max}
                  value={value === undefined || value === null ? "" : String(value)}
                  onChange={(e) => onChange(f.fieldname, e.target.value)}
                  invalid={bad}
                  readOnly={readOnly || f.readOnly}
                />
              );
              break;
            case "password":
              control = (
                <Input
                  id={id}
                  type="password"
                  autoComplete="new-password"
                  placeholder={doc[`__has_${f.fieldname}`] ? "Saved — type to replace" : ""}
                  value={String(value ?? "")}
                  onChange={(e) => onChange(f.fieldname, e.target.value)}
                  invalid={bad}
                  readOnly={readOnly || f.readOnly}
                />
              );
              break;
            default:
              control = (
                <Input id={id} value={String(value ?? "")} onChange={(e) => onChange(f.fieldname, e.target.value)} invalid={bad} readOnly={readOnly || f.readOnly} />
              );
          }
          return (
            <div key={f.fieldname} className={wide ? "md:col-span-2" : undefined}>
              <Field label={f.required ? `${f.label} *` : f.label} help={f.help} error={bad} htmlFor={id}>
                {control}
              </Field>
            </div>
          );
        })}
    </div>
  );
}
