import { Input, Select, Textarea } from "../components/ui";
import { inputKind } from "./cells";
import { selectOptions, type FieldDraft } from "./schemaDraft";

/** How the record form will look with the fields as designed (nothing here is saved). */
export function FormPreview({ fields }: { fields: FieldDraft[] }) {
  return (
    <section aria-label="Form preview" className="space-y-3">
      {!fields.length && <p className="text-sm text-slate-500">Add a field to see the form.</p>}
      {fields.map((f) => {
        const id = `preview-${f.key}`;
        const kind = inputKind(f.fieldtype);
        const label = `${f.label || "(no label)"}${f.reqd ? " *" : ""}`;
        return (
          <div key={f.key} className="space-y-1" data-testid="preview-field">
            {kind === "checkbox" ? (
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" disabled checked={f.default === "1"} readOnly />
                {label}
              </label>
            ) : (
              <>
                <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
                  {label}
                </label>
                {kind === "select" ? (
                  <Select id={id} disabled value={f.default}>
                    <option value="">Select…</option>
                    {selectOptions(f.options).map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </Select>
                ) : kind === "textarea" ? (
                  <Textarea id={id} disabled rows={2} value={f.default} readOnly />
                ) : (
                  <Input id={id} disabled type={kind} value={f.default} readOnly placeholder={f.fieldtype === "Link" && f.options ? `A record of ${f.options}` : undefined} />
                )}
              </>
            )}
            {f.description && <p className="text-xs text-slate-500">{f.description}</p>}
          </div>
        );
      })}
    </section>
  );
}
