import { useState } from "react";
import { Link } from "react-router-dom";
import { Badge, Button, cx, EmptyState, PageHeader } from "../components/ui";
import { can } from "../lib/boot";
import { ConnectionPanel } from "./ConnectionPanel";
import { credentialSpecs, serviceLabel } from "./integrationForm";
import { SETTINGS_DOCTYPE, type ServiceSummary } from "./integrationsApi";
import { SettingsEditor } from "./SettingsEditor";

/** One service: its settings records (one default), the editor of the selected one and its connection tools. */
export function ServicePanel({ service }: { service: ServiceSummary }) {
  const [selected, setSelected] = useState<string | "new" | undefined>(service.settings[0]?.name);
  // the editor stays mounted when a new record is saved (it keeps its "Saved." notice)
  const [editorKey, setEditorKey] = useState(0);
  const open = (name: string | "new") => {
    setSelected(name);
    setEditorKey((k) => k + 1);
  };
  const summary = service.settings.find((s) => s.name === selected);
  const specs = credentialSpecs(service.required_credentials);
  return (
    <div className="space-y-4">
      <PageHeader
        title={serviceLabel(service)}
        description={[service.description, service.auth_type && `Authentication: ${service.auth_type}`].filter(Boolean).join(" · ")}
        actions={
          <>
            <Link to="/integrations" className="self-center text-sm text-indigo-600 hover:underline dark:text-indigo-400">
              All integrations
            </Link>
            {can(SETTINGS_DOCTYPE, "create") && <Button onClick={() => open("new")}>New settings</Button>}
          </>
        }
      />
      <div className="grid gap-4 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="Settings records" className="space-y-1">
          {service.settings.length === 0 && <p className="text-sm text-slate-500">No settings yet.</p>}
          {service.settings.map((s) => (
            <button
              key={s.name}
              type="button"
              onClick={() => open(s.name)}
              className={cx("flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm", selected === s.name ? "bg-indigo-50 dark:bg-indigo-950" : "hover:bg-slate-100 dark:hover:bg-slate-800")}
            >
              <span className="truncate">{s.label || s.name}</span>
              <span className="flex gap-1">
                {Boolean(s.is_default) && <Badge color="blue">Default</Badge>}
                {!s.is_active && <Badge>Inactive</Badge>}
                {s.last_connection_status === "Failed" && <Badge color="red">Test failed</Badge>}
              </span>
            </button>
          ))}
        </nav>
        <div className="space-y-4">
          {selected === undefined ? (
            <EmptyState title="Not configured" description={`Add settings with the credentials ${serviceLabel(service)} needs.`} />
          ) : (
            <SettingsEditor key={editorKey} service={service.service} specs={specs} fields={service.settings_fields} name={selected === "new" ? undefined : selected} onSaved={setSelected} />
          )}
          {summary && <ConnectionPanel key={summary.name} service={service} settings={summary} />}
        </div>
      </div>
    </div>
  );
}
