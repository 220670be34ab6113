import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { Button, Card, ErrorBanner, Input, Notice, Spinner, cx } from "../components/ui";
import { errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { leaveQuestion, useLeaveGuard } from "../lib/useLeaveGuard";
import { useSaveShortcut } from "../lib/useSaveShortcut";
import { EMPTY_TEMPLATE, PromptForm } from "./PromptForm";
import { createTemplate, createVersion, forkTemplate, promptKeys, versionHistory, type KindConfig, type PromptVersion, type TemplateFields } from "./promptApi";
import { UsedBy } from "./UsedBy";
import { VersionHistory } from "./VersionHistory";

const fieldsOf = (v: PromptVersion): TemplateFields => ({
  title: v.title ?? "",
  category: v.category ?? "",
  visibility: v.visibility ?? "Public",
  description: v.description ?? "",
  prompt_body: v.prompt_body ?? "",
});

const changed = (a: TemplateFields, b: TemplateFields) => a.title !== b.title || a.description !== b.description || a.prompt_body !== b.prompt_body;
/** A new template with anything typed or chosen in it. */
const started = (form: TemplateFields) => JSON.stringify(form) !== JSON.stringify(EMPTY_TEMPLATE);

const TAB = "-mb-px border-b-2 px-3 py-2 text-sm data-[state=active]:border-indigo-600 data-[state=active]:font-medium data-[state=inactive]:border-transparent";

/** A new template, or one template with its editor, versions and the agents using it. */
export function PromptDetail({ config, name }: { config: KindConfig; name: string | null }) {
  const isNew = name === null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TemplateFields>(EMPTY_TEMPLATE);
  const location = useLocation();
  // what was just saved is told on the page of the version it made (a new mount: the page is keyed by name)
  const notice = (location.state as { notice?: string } | null)?.notice ?? "";
  const [forkTitle, setForkTitle] = useState<string | null>(null);
  const history = useQuery({ queryKey: promptKeys.history(config.kind, name), queryFn: () => versionHistory(config, name ?? ""), enabled: !isNew });
  const versions = history.data ?? [];
  const latest = versions.find((v) => v.is_latest) ?? versions[0];
  // reset the form only when another version arrives, not when the same one is fetched again
  const loaded = latest ? `${latest.name}:${latest.modified ?? ""}` : "";
  useEffect(() => {
    setForm(latest ? fieldsOf(latest) : EMPTY_TEMPLATE);
  }, [loaded]);

  const refresh = (to: string, notice: string) => {
    void queryClient.invalidateQueries({ queryKey: promptKeys.list(config.kind) });
    void queryClient.invalidateQueries({ queryKey: promptKeys.histories(config.kind) });
    void queryClient.invalidateQueries({ queryKey: ["options", config.doctype] });
    navigate(`${config.path}/${encodeURIComponent(to)}`, { state: { notice } });
  };
  const save = useMutation({
    mutationFn: async () => (isNew ? (await createTemplate(config, form)).name : createVersion(config, latest?.name ?? "", form)),
    onSuccess: (saved) => refresh(saved, isNew ? "Template created as version 1." : "Saved as a new version."),
  });
  const fork = useMutation({
    mutationFn: () => forkTemplate(config, latest?.name ?? "", forkTitle ?? ""),
    onSuccess: (saved) => {
      setForkTitle(null);
      refresh(saved, "Forked: this is your own copy, with its own versions.");
    },
  });

  const canSave = isNew ? can(config.doctype, "create") : can(config.doctype, "write") && !latest?.is_system;
  const dirty = isNew ? form.title.trim() !== "" && form.prompt_body.trim() !== "" : latest !== undefined && changed(form, fieldsOf(latest));
  // leaving (a link, another template, back) with edits asks first; Ctrl+S saves them
  useLeaveGuard(canSave && !save.isPending && (isNew ? started(form) : dirty), leaveQuestion("this template"));
  useSaveShortcut(() => save.mutate(), canSave && dirty && !save.isPending);

  if (!isNew && history.isLoading) return <Spinner />;
  if (!isNew && history.error) return <ErrorBanner title="This template could not be opened" message={errorMessage(history.error)} />;
  const error = save.error ?? fork.error;

  const editor = (
    <Card>
      <PromptForm config={config} value={form} onChange={setForm} isNew={isNew} readOnly={!canSave} />
      <div className="mt-4 flex flex-wrap items-center gap-2">
        {canSave && (
          <Button onClick={() => save.mutate()} disabled={!dirty || save.isPending}>
            {save.isPending ? "Saving…" : isNew ? "Create template" : "Save as new version"}
          </Button>
        )}
        {!isNew && canSave && dirty && (
          <Button variant="ghost" onClick={() => latest && setForm(fieldsOf(latest))}>
            Discard changes
          </Button>
        )}
        {!isNew && !canSave && <p className="text-sm text-slate-500">{latest?.is_system ? "A built-in template: fork it to change it." : "You can read this template but not change it."}</p>}
      </div>
    </Card>
  );

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-semibold">{isNew ? "New template" : latest?.title}</h2>
        {!isNew && latest && <span className="text-sm text-slate-500">Version {latest.version}</span>}
        {!isNew && can(config.doctype, "create") && forkTitle === null && (
          <Button variant="secondary" className="ml-auto" onClick={() => setForkTitle(`${latest?.title ?? ""} (copy)`)}>
            Fork
          </Button>
        )}
      </div>
      {forkTitle !== null && (
        <Card className="flex flex-wrap items-end gap-2">
          <label className="flex-1 text-sm">
            <span className="mb-1 block font-medium">Title of the copy</span>
            <Input value={forkTitle} onChange={(e) => setForkTitle(e.target.value)} aria-label="Title of the copy" />
          </label>
          <Button onClick={() => fork.mutate()} disabled={!forkTitle.trim() || fork.isPending}>
            {fork.isPending ? "Forking…" : "Fork template"}
          </Button>
          <Button variant="ghost" onClick={() => setForkTitle(null)}>
            Cancel
          </Button>
        </Card>
      )}
      <div aria-live="polite" className="space-y-2">
        {error && <ErrorBanner title="Couldn't save the template" message={errorMessage(error)} />}
        {notice && !error && <Notice message={notice} />}
      </div>
      {isNew ? (
        editor
      ) : (
        <Tabs.Root defaultValue="editor">
          <Tabs.List aria-label="Template" className="mb-3 flex gap-1 border-b border-slate-200 dark:border-slate-800">
            <Tabs.Trigger value="editor" className={cx(TAB)}>
              Editor
            </Tabs.Trigger>
            <Tabs.Trigger value="history" className={cx(TAB)}>
              Versions ({versions.length})
            </Tabs.Trigger>
            <Tabs.Trigger value="used-by" className={cx(TAB)}>
              Used by
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="editor">{editor}</Tabs.Content>
          <Tabs.Content value="history">
            <VersionHistory versions={versions} />
          </Tabs.Content>
          <Tabs.Content value="used-by">
            <UsedBy config={config} versions={versions} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </div>
  );
}
