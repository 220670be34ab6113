import { useQuery } from "@tanstack/react-query";
import { MasterDetail } from "../components/MasterDetail";
import { RecordEditor } from "../components/RecordEditor";
import { Spinner } from "../components/ui";
import { getList } from "../lib/api";
import type { FieldDef } from "../lib/forms";
import { ProviderModelPicker } from "./ProviderModels";

const custom = (doc: Record<string, unknown>) => Boolean(doc.use_custom_pricing);

const FIELDS: FieldDef[] = [
  { fieldname: "model_name", label: "Model Name", type: "data", required: true, help: "As the provider names it, for example gpt-4o-mini." },
  { fieldname: "provider", label: "Provider", type: "link", linkTo: "AI Provider", required: true },
  { fieldname: "use_custom_pricing", label: "Custom pricing", type: "check", help: "Set your own prices instead of the provider's list prices." },
  { fieldname: "input_cost_per_1m_tokens", label: "Input cost per 1M tokens", type: "float", showIf: custom },
  { fieldname: "output_cost_per_1m_tokens", label: "Output cost per 1M tokens", type: "float", showIf: custom },
  { fieldname: "cached_input_cost_per_1m_tokens", label: "Cached input cost per 1M tokens", type: "float", showIf: custom },
];

/** One model's form; a new one starts with the only provider there is, and offers that provider's models. */
function ModelEditor({ name, select }: { name: string | null; select: (name: string | null | undefined) => void }) {
  const isNew = name === null;
  const providers = useQuery({ queryKey: ["list", "AI Provider", "names"], queryFn: () => getList<{ name: string }>("AI Provider", { limit: 2 }), enabled: isNew });
  if (isNew && providers.isLoading) return <Spinner label="Loading providers…" />;
  const lone = providers.data?.length === 1 ? providers.data[0]?.name : undefined;
  return (
    <RecordEditor
      doctype="AI Model"
      name={name}
      fields={FIELDS}
      nameField="model_name"
      defaults={{ model_name: "", provider: lone ?? "", use_custom_pricing: 0 }}
      title={name ?? "New model"}
      onSaved={(doc) => select(String(doc.name))}
      onDeleted={() => select(undefined)}
    >
      {(doc, set, readOnly) =>
        isNew && !readOnly ? <ProviderModelPicker provider={String(doc.provider ?? "")} value={String(doc.model_name ?? "")} onPick={(model) => set("model_name", model)} /> : null
      }
    </RecordEditor>
  );
}

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
      renderEditor={(name, select) => <ModelEditor key={name ?? "new"} name={name} select={select} />}
    />
  );
}
