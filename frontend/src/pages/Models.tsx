import { MasterDetail } from "../components/MasterDetail";
import { RecordEditor } from "../components/RecordEditor";
import type { FieldDef } from "../lib/forms";

const custom = (doc: Record<string, unknown>) => Boolean(doc.use_custom_pricing);

const FIELDS: FieldDef[] = [
  { fieldname: "model_name", label: "Model Name", type: "data", required: true, help: "As the provider names it, for example gpt-4o-mini." },
  { fieldname: "provider", label: "Provider", type: "link", linkTo: "AI Provider", required: true },
  { fieldname: "use_custom_pricing", label: "Custom pricing", type: "check", help: "Set your own prices instead of the provider's list prices." },
  { fieldname: "input_cost_per_1m_tokens", label: "Input cost per 1M tokens", type: "float", showIf: custom },
  { fieldname: "output_cost_per_1m_tokens", label: "Output cost per 1M tokens", type: "float", showIf: custom },
  { fieldname: "cached_input_cost_per_1m_tokens", label: "Cached input cost per 1M tokens", type: "float", showIf: custom },
];

export default function Models() {
  return (
    <MasterDetail
      doctype="AI Model"
      title="Models"
      description="The models agents can use, and what they cost."
      listFields={["provider", "use_custom_pricing"]}
      newLabel="New model"
      emptyTitle="No models yet"
      emptyDescription="Add a model of one of your providers."
      renderRow={(row) => (
        <span>
          <span className="font-medium">{row.name}</span>
          <span className="block text-xs text-slate-500">{String(row.provider ?? "")}</span>
        </span>
      )}
      renderEditor={(name, select) => (
        <RecordEditor
          key={name ?? "new"}
          doctype="AI Model"
          name={name}
          fields={FIELDS}
          nameField="model_name"
          defaults={{ model_name: "", provider: "", use_custom_pricing: 0 }}
          title={name ?? "New model"}
          onSaved={(doc) => select(String(doc.name))}
          onDeleted={() => select(undefined)}
        />
      )}
    />
  );
}
