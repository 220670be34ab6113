import { useQuery } from "@tanstack/react-query";
import { Field, Input, Select, Textarea, Toggle } from "../components/ui";
import { getList } from "../lib/api";
import { dataFieldTypes } from "../lib/boot";
import { listDataTables, tablesKey, type FieldType } from "./dataApi";
import { selectOptions, type FieldDraft } from "./schemaDraft";

/** What a Link field can point to: the data tables and the other record types the user can read. */
function LinkTargets({ id }: { id: string }) {
  const tables = useQuery({ queryKey: tablesKey, queryFn: listDataTables });
  const doctypes = useQuery({
    queryKey: ["link-doctypes"],
    queryFn: () => getList<{ name: string }>("DocType", { fields: ["name"], filters: [["istable", "=", 0], ["issingle", "=", 0]], order_by: "name asc", limit: 1000 }),
    retry: false,
  });
  const names = [...(tables.data ?? []).map((t) => t.doctype_name), ...(doctypes.data ?? []).map((d) => d.name).filter((n) => !n.startsWith("HF "))];
  return (
    <datalist id={id}>
      {names.map((n) => (
        <option key={n} value={n} />
      ))}
    </datalist>
  );
}

/** The properties of one field. */
export function FieldProperties({ field, error, onChange }: { field: FieldDraft; error?: string; onChange: (patch: Partial<FieldDraft>) => void }) {
  const id = (name: string) => `field-${name}`;
  const choices = selectOptions(field.options);
  return (
    <section aria-label={`Properties of ${field.label || "the field"}`} className="space-y-3">
      <div className="grid gap-3 md:grid-cols-2">
        <Field label="Label" htmlFor={id("label")}>
          <Input id={id("label")} value={field.label} onChange={(e) => onChange({ label: e.target.value })} invalid={Boolean(error) && !field.label.trim()} />
        </Field>
        <Field label="Fieldname" htmlFor={id("fieldname")} help={field.original_fieldname && field.original_fieldname !== field.fieldname ? `Renamed from ${field.original_fieldname}: values are kept.` : "Used by agents, filters and CSV files."}>
          <Input id={id("fieldname")} className="font-mono" value={field.fieldname} onChange={(e) => onChange({ fieldname: e.target.value })} />
        </Field>
        <Field label="Type" htmlFor={id("type")}>
          <Select id={id("type")} value={field.fieldtype} onChange={(e) => onChange({ fieldtype: e.target.value as FieldType })}>
            {dataFieldTypes().map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Default" htmlFor={id("default")}>
          {field.fieldtype === "Select" ? (
            <Select id={id("default")} value={field.default} onChange={(e) => onChange({ default: e.target.value })}>
              <option value="">None</option>
              {choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          ) : field.fieldtype === "Check" ? (
            <Select id={id("default")} value={field.default} onChange={(e) => onChange({ default: e.target.value })}>
              <option value="">Unchecked</option>
              <option value="1">Checked</option>
            </Select>
          ) : (
            <Input id={id("default")} value={field.default} onChange={(e) => onChange({ default: e.target.value })} />
          )}
        </Field>
      </div>
      {field.fieldtype === "Select" && (
        <Field label="Choices (one a line)" htmlFor={id("options")}>
          <Textarea id={id("options")} rows={4} value={field.options} onChange={(e) => onChange({ options: e.target.value })} />
        </Field>
      )}
      {field.fieldtype === "Link" && (
        <Field label="Links to" htmlFor={id("options")} help="A data table or another kind of record.">
          <Input id={id("options")} list={id("link-targets")} value={field.options} onChange={(e) => onChange({ options: e.target.value })} />
          <LinkTargets id={id("link-targets")} />
        </Field>
      )}
      <Field label="Description" htmlFor={id("description")}>
        <Input id={id("description")} value={field.description} onChange={(e) => onChange({ description: e.target.value })} />
      </Field>
      <div className="grid gap-2 md:grid-cols-2">
        <Toggle label="Required" checked={field.reqd} onChange={(v) => onChange({ reqd: v })} />
        <Toggle label="Unique" checked={field.unique} onChange={(v) => onChange({ unique: v })} />
        <Toggle label="Show in list" checked={field.in_list_view} onChange={(v) => onChange({ in_list_view: v })} />
        <Toggle label="Offer as filter" checked={field.in_standard_filter} onChange={(v) => onChange({ in_standard_filter: v })} />
        <Toggle label="Searchable" checked={field.search} onChange={(v) => onChange({ search: v })} />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}
