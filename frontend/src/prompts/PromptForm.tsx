import { LinkSelect } from "../components/FormFields";
import { Field, Input, Select, Textarea } from "../components/ui";
import { VISIBILITIES, type KindConfig, type TemplateFields } from "./promptApi";

export const EMPTY_TEMPLATE: TemplateFields = { title: "", category: "", visibility: "Public", description: "", prompt_body: "" };

/** The fields of a template; category and visibility belong to the template and are chosen when it is created. */
export function PromptForm({
  config,
  value,
  onChange,
  isNew,
  readOnly,
  withBody = true,
}: {
  config: KindConfig;
  value: TemplateFields;
  onChange: (value: TemplateFields) => void;
  isNew: boolean;
  readOnly: boolean;
  withBody?: boolean;
}) {
  const set = (key: keyof TemplateFields) => (v: string) => onChange({ ...value, [key]: v });
  const id = (key: string) => `${config.kind}-${key}`;
  return (
    <div className="space-y-3">
      <Field label="Title *" htmlFor={id("title")}>
        <Input id={id("title")} value={value.title} onChange={(e) => set("title")(e.target.value)} readOnly={readOnly} required />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Category" htmlFor={id("category")}>
          <LinkSelect id={id("category")} doctype={config.categoryDoctype} value={value.category} onChange={set("category")} disabled={readOnly || !isNew} placeholder="No category" />
        </Field>
        <Field label="Visibility" htmlFor={id("visibility")} help="Who finds this template in the library.">
          <Select id={id("visibility")} value={value.visibility} onChange={(e) => set("visibility")(e.target.value)} disabled={readOnly || !isNew}>
            {VISIBILITIES.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="Description" htmlFor={id("description")}>
        <Input id={id("description")} value={value.description} onChange={(e) => set("description")(e.target.value)} readOnly={readOnly} />
      </Field>
      {withBody && (
        <Field label="Prompt *" htmlFor={id("body")} help="Markdown. Saving makes a new version; earlier versions never change.">
          <Textarea id={id("body")} className="min-h-64 font-mono text-xs" value={value.prompt_body} onChange={(e) => set("prompt_body")(e.target.value)} readOnly={readOnly} />
        </Field>
      )}
    </div>
  );
}
