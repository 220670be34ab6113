import { PageHeader } from "../components/ui";
import { RecordEditor } from "../components/RecordEditor";
import { getBoot, hasCapability } from "../lib/boot";
import type { FieldDef } from "../lib/forms";
import { SeedFromApps } from "../settings/SeedFromApps";

const FIELDS: FieldDef[] = [
  { fieldname: "default_provider", label: "Default Provider", type: "link", linkTo: "AI Provider" },
  {
    fieldname: "default_model",
    label: "Default Model",
    type: "link",
    linkTo: "AI Model",
    linkFilters: (doc) => (doc.default_provider ? { provider: doc.default_provider } : undefined),
  },
];

export default function Settings() {
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader title="Settings" description="Defaults for new agents." />
      <RecordEditor doctype="Agent Settings" name="Agent Settings" fields={FIELDS} defaults={{}} title="Agent defaults" />
      {(getBoot().roles.includes("System Manager") || hasCapability("system.settings.manage")) && <SeedFromApps />}
    </div>
  );
}
