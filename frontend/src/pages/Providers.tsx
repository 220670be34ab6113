import { MasterDetail } from "../components/MasterDetail";
import { RecordEditor } from "../components/RecordEditor";
import type { FieldDef } from "../lib/forms";

const FIELDS: FieldDef[] = [
  { fieldname: "provider_name", label: "Provider Name", type: "data", required: true, help: "For example OpenAI, Anthropic or OpenRouter." },
  { fieldname: "api_key", label: "API Key", type: "password", help: "Stored encrypted. It is never shown again after saving." },
  { fieldname: "api_base", label: "Base URL", type: "data", help: "Only for self-hosted or compatible services." },
  { fieldname: "requests_per_minute", label: "Requests per Minute", type: "int", min: 0, help: "At most this many model calls in any 60 seconds; a call waits for a free slot. 0: no limit." },
  { fieldname: "requests_per_day", label: "Requests per Day", type: "int", min: 0, help: "At most this many model calls in any 24 hours. 0: no limit." },
];

export default function Providers() {
  return (
    <MasterDetail
      doctype="AI Provider"
      title="Providers"
      description="The AI services your agents use, with their keys."
      listFields={[]}
      newLabel="New provider"
      emptyTitle="No providers yet"
      emptyDescription="Add a provider and its API key to start."
      renderRow={(row) => <span className="font-medium">{row.name}</span>}
      renderEditor={(name, select) => (
        <RecordEditor
          key={name ?? "new"}
          doctype="AI Provider"
          name={name}
          fields={FIELDS}
          nameField="provider_name"
          defaults={{ provider_name: "", api_key: "", api_base: "", requests_per_minute: 0, requests_per_day: 0 }}
          title={name ?? "New provider"}
          onSaved={(doc) => select(String(doc.name))}
          onDeleted={() => select(undefined)}
        />
      )}
    />
  );
}
