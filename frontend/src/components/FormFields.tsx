import { useQuery } from "@tanstack/react-query";
import { getList } from "../lib/api";
import { switchOn, switchValue, type FieldDef } from "../lib/forms";
import { DocTypeInput } from "./DocTypeInput";
import { Field, Input, Select, Textarea, Toggle, cx } from "./ui";

export type Doc = Record<string, unknown>;

/** Inputs the user cannot change look it: a flat grey box, no focus ring. */
export const READ_ONLY_CLASS =
  "cursor-default !border-dashed !bg-slate-100 !text-slate-600 !shadow-none focus:!border-slate-300 focus:!ring-0 dark:!bg-slate-800/60 dark:!text-slate-400";

/** A dropdown of the records of `doctype` (only those the user can see). */
export function LinkSelect({
  doctype,
  value,
  onChange,
  id,
  invalid,
  disabled,
  filters,
  exclude = [],
  placeholder = "Select…",
  label,
}: {
  doctype: string;
  value: string;
  onChange: (value: string) => void;
  id?: string;
  invalid?: boolean;
  disabled?: boolean;
  filters?: Record<string, unknown>;
  /** Records not to offer (e.g. those already added). */
  exclude?: string[];
  placeholder?: string;
  /** The accessible name, where no <label> names the select. */
  label?: string;
}) {
  const { data = [] } = useQuery({
    queryKey: ["options", doctype, filters ?? null],
    queryFn: () => getList<{ name: string }>(doctype, { fields: ["name"], filters, order_by: "name asc", limit: 500 }),
  });
  const names = data.map((r) => r.name).filter((name) => name === value || !exclude.includes(name));
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <Select id={id} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} invalid={invalid} disabled={disabled} className={disabled ? READ_ONLY_CLASS : undefined}>
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
  messages = {},
  readOnly = false,
  idPrefix = "f",
}: {
  fields: FieldDef[];
  doc: Doc;
  onChange: (fieldname: string, value: unknown) => void;
  invalid?: string[];
  /** Messages shown beside their fields ("Tool Name is required."). */
  messages?: Record<string, string>;
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
          const locked = readOnly || f.readOnly;
          const lockedClass = locked ? READ_ONLY_CLASS : undefined;
          const message = messages[f.fieldname];
          const described = message ? { "aria-describedby": `${id}-message` } : {};
          const wide = f.type === "text" || f.type === "code";
          let control;
          switch (f.type) {
            case "check":
              return (
                <div key={f.fieldname} className="md:col-span-2">
                  <Toggle checked={switchOn(f, value)} onChange={(v) => onChange(f.fieldname, switchValue(f, v))} label={f.label} disabled={locked} />
                  {f.help && <p className="ml-11 text-xs text-slate-500 dark:text-slate-400">{f.help}</p>}
                </div>
              );
            case "select":
              control = (
                <Select id={id} value={String(value ?? "")} onChange={(e) => onChange(f.fieldname, e.target.value)} invalid={bad} disabled={locked} className={lockedClass} {...described}>
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
                <LinkSelect id={id} doctype={f.linkTo ?? ""} filters={f.linkFilters?.(doc)} value={String(value ?? "")} onChange={(v) => onChange(f.fieldname, v)} invalid={bad} disabled={locked} />
              );
              break;
            case "text":
            case "code":
              control = (
                <Textarea
                  id={id}
                  rows={f.type === "code" ? 10 : 3}
                  className={cx(f.type === "code" && "font-mono", lockedClass)}
                  value={String(value ?? "")}
                  onChange={(e) => onChange(f.fieldname, e.target.value)}
                  invalid={bad}
                  readOnly={locked}
                  {...described}
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
                  readOnly={locked}
                  className={lockedClass}
                  {...described}
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
                  readOnly={locked}
                  className={lockedClass}
                  {...described}
                />
              );
              break;
            case "doctype":
              control = (
                <DocTypeInput id={id} value={String(value ?? "")} onChange={(v) => onChange(f.fieldname, v)} invalid={bad} readOnly={locked} className={lockedClass} {...described} />
              );
              break;
            default:
              control = (
                <Input id={id} value={String(value ?? "")} onChange={(e) => onChange(f.fieldname, e.target.value)} invalid={bad} readOnly={locked} className={lockedClass} {...described} />
              );
          }
          return (
            <div key={f.fieldname} className={wide ? "md:col-span-2" : undefined}>
              <Field label={f.required ? `${f.label} *` : f.label} help={f.help} error={bad} htmlFor={id}>
                {control}
                {message && (
                  <p id={`${id}-message`} className="text-xs text-red-600 dark:text-red-400">
                    {message}
                  </p>
                )}
              </Field>
            </div>
          );
        })}
    </div>
  );
}
