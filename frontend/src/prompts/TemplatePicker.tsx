import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { Button, Card, ErrorBanner, Field, Select, Spinner, Toggle } from "../components/ui";
import { errorMessage } from "../lib/api";
import { EMPTY_TEMPLATE, PromptForm } from "./PromptForm";
import { detachAgent, listTemplates, promptKeys, saveAgentAsTemplate, versionHistory, type KindConfig, type TemplateFields } from "./promptApi";

type Doc = Record<string, unknown>;

/** An agent's shared template of one kind: which template, which version (locked or the latest), and detach. */
export function TemplatePicker({
  config,
  doc,
  set,
  readOnly,
  agent,
  dirty,
  onServerChange,
}: {
  config: KindConfig;
  doc: Doc;
  set: (field: string, value: unknown) => void;
  readOnly: boolean;
  /** The saved agent's name; undefined for a new agent. */
  agent?: string;
  dirty: boolean;
  onServerChange: () => void;
}) {
  const attached = String(doc[config.agentLink] ?? "");
  const locked = Boolean(doc[config.agentLock]);
  const templates = useQuery({ queryKey: promptKeys.list(config.kind), queryFn: () => listTemplates(config) });
  const history = useQuery({ queryKey: promptKeys.history(config.kind, attached), queryFn: () => versionHistory(config, attached), enabled: Boolean(attached) });
  const detach = useMutation({ mutationFn: () => detachAgent(config, agent ?? ""), onSuccess: onServerChange });
  const versions = history.data ?? [];
  const current = versions.find((v) => v.name === attached);
  const latest = versions.find((v) => v.is_latest) ?? versions[0];
  const shown = locked ? current : latest;
  const id = (key: string) => `agent-${config.kind}-${key}`;

  if (templates.isLoading) return <Spinner label="Loading templates…" />;
  if (templates.error) return <ErrorBanner title="The templates could not be loaded" message={errorMessage(templates.error)} />;
  const list = templates.data ?? [];
  return (
    <Card className="space-y-3">
      {list.length === 0 && !attached ? (
        <p className="text-sm text-slate-500">
          No templates yet. Create one in <Link to={config.path} className="text-indigo-700 underline dark:text-indigo-300">{config.title}</Link>, or write instructions here and save them as a template.
        </p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Template *" htmlFor={id("template")}>
            <Select
              id={id("template")}
              value={current?.lineage ?? ""}
              disabled={readOnly}
              onChange={(e) => {
                const chosen = list.find((t) => t.lineage === e.target.value);
                set(config.agentLink, chosen?.name ?? "");
              }}
            >
              <option value="">Choose a template…</option>
              {list.map((t) => (
                <option key={t.name} value={t.lineage}>
                  {t.title}
                  {t.category ? ` (${t.category})` : ""}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Version" htmlFor={id("version")} help={locked ? "The agent keeps this version until you choose another." : "The agent always uses the latest version."}>
            <Select id={id("version")} value={locked ? attached : (latest?.name ?? "")} disabled={readOnly || !locked || !versions.length} onChange={(e) => set(config.agentLink, e.target.value)}>
              {versions.map((v) => (
                <option key={v.name} value={v.name}>
                  Version {v.version}
                  {v.is_latest ? " (latest)" : ""}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
      {attached && (
        <Toggle
          label="Keep this version"
          checked={locked}
          disabled={readOnly}
          onChange={(v) => {
            set(config.agentLock, v ? 1 : 0);
            if (!v && latest) set(config.agentLink, latest.name);
          }}
        />
      )}
      {history.error && <ErrorBanner message={errorMessage(history.error)} />}
      {shown && (
        <div>
          <p className="mb-1 text-xs font-medium text-slate-500">
            Version {shown.version} of {shown.title}
          </p>
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded-md bg-slate-50 p-3 text-xs dark:bg-slate-800" aria-label="Template text">
            {shown.prompt_body}
          </pre>
        </div>
      )}
      {agent && !readOnly && attached && (
        <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
          <Button variant="secondary" disabled={dirty || detach.isPending} onClick={() => detach.mutate()}>
            {detach.isPending ? "Detaching…" : "Detach"}
          </Button>
          <span className="text-xs text-slate-500">{dirty ? "Save the agent first." : "Copy the template's text into this agent, to change it here."}</span>
          {detach.error && <ErrorBanner title="Couldn't detach" message={errorMessage(detach.error)} />}
        </div>
      )}
    </Card>
  );
}

/** Save the agent's own instructions (or summary prompt) as a new shared template and attach it. */
export function SaveAsTemplate({ config, agent, dirty, onServerChange }: { config: KindConfig; agent: string; dirty: boolean; onServerChange: () => void }) {
  const [form, setForm] = useState<TemplateFields | null>(null);
  const save = useMutation({
    mutationFn: () => saveAgentAsTemplate(config, agent, { title: form?.title ?? "", category: form?.category ?? "", visibility: form?.visibility ?? "Public", description: form?.description ?? "" }),
    onSuccess: () => {
      setForm(null);
      onServerChange();
    },
  });
  if (form === null)
    return (
      <div className="flex items-center gap-2">
        <Button variant="secondary" disabled={dirty} onClick={() => setForm({ ...EMPTY_TEMPLATE })}>
          Save as template
        </Button>
        {dirty && <span className="text-xs text-slate-500">Save the agent first.</span>}
      </div>
    );
  return (
    <Card className="space-y-3">
      <h3 className="font-medium">Save as template</h3>
      <PromptForm config={config} value={form} onChange={setForm} isNew readOnly={false} withBody={false} />
      {save.error && <ErrorBanner title="Couldn't save the template" message={errorMessage(save.error)} />}
      <div className="flex gap-2">
        <Button onClick={() => save.mutate()} disabled={!form.title.trim() || save.isPending}>
          {save.isPending ? "Saving…" : "Save template"}
        </Button>
        <Button variant="ghost" onClick={() => setForm(null)}>
          Cancel
        </Button>
      </div>
    </Card>
  );
}
