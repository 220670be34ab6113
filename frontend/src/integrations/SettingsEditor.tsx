import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { LinkSelect } from "../components/FormFields";
import { SAVED_PLACEHOLDER } from "../components/SecretHeaderRows";
import { Button, Card, ErrorBanner, Field, Input, Notice, Spinner, Toggle } from "../components/ui";
import { errorMessage, type Dict } from "../lib/api";
import { can } from "../lib/boot";
import { useSaveShortcut } from "../lib/useSaveShortcut";
import { draftFromDoc, missingCredentials, recipientProblems, settingsPayload, usesField, type SettingsDraft } from "./integrationForm";
import { INTEGRATIONS_KEY, loadSettings, saveSettings, SETTINGS_DOCTYPE, type CredentialSpec } from "./integrationsApi";

/** The form of one Integration Settings record; credentials are write-only ("Saved — type to replace"). */
export function SettingsEditor({
  service,
  specs,
  fields = null,
  name: initialName,
  onSaved,
}: {
  service: string;
  specs: CredentialSpec[];
  /** The fields the service uses (the server's table); the form shows and sends only these. */
  fields?: string[] | null;
  name?: string;
  onSaved: (name: string) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(initialName);
  const loaded = useQuery({ queryKey: ["integration-settings", initialName], queryFn: () => loadSettings(String(initialName)), enabled: Boolean(initialName) });
  const [draft, setDraft] = useState<SettingsDraft | null>(initialName ? null : draftFromDoc(service, specs, null, fields));
  const [problems, setProblems] = useState<string[]>([]);
  useEffect(() => {
    if (loaded.data) setDraft(draftFromDoc(service, specs, loaded.data, fields));
    // specs come from the same catalog load as the record list
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, service]);

  const save = useMutation({
    mutationFn: (doc: Dict) => saveSettings(name, doc),
    onSuccess: async (saved) => {
      setName(String(saved.name));
      setDraft(draftFromDoc(service, specs, saved, fields));
      await queryClient.invalidateQueries({ queryKey: ["integration-settings", String(saved.name)] });
      await queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY });
      onSaved(String(saved.name));
    },
  });

  // Ctrl+S saves what changed since the record was loaded or saved
  const saved = save.data ?? loaded.data ?? null;
  const changed = draft !== null && JSON.stringify(draft) !== JSON.stringify(draftFromDoc(service, specs, saved, fields));
  useSaveShortcut(() => submit(), changed && !save.isPending && can(SETTINGS_DOCTYPE, "write"));

  if (loaded.isLoading || !draft) return loaded.error ? <ErrorBanner message={errorMessage(loaded.error)} /> : <Spinner />;
  const readOnly = !can(SETTINGS_DOCTYPE, "write");
  const uses = (field: string) => usesField(draft.fields, field);
  const set = (patch: Partial<SettingsDraft>) => {
    setDraft({ ...draft, ...patch });
    save.reset();
  };
  function submit() {
    if (!draft) return;
    const found = [...missingCredentials(draft.credentials).map((label) => `Enter ${label}.`), ...recipientProblems(draft.recipients)];
    setProblems(found);
    if (!found.length) save.mutate(settingsPayload(draft));
  }

  return (
    <Card className="space-y-4">
      <h2 className="font-medium">{name ? draft.label || name : "New settings"}</h2>
      {problems.length > 0 && <ErrorBanner title="Please check the form" message={problems.join(" ")} />}
      {save.error && <ErrorBanner title="Not saved" message={errorMessage(save.error)} />}
      {save.isSuccess && <Notice message="Saved." />}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Label" htmlFor="is-label">
          <Input id="is-label" value={draft.label} readOnly={readOnly} onChange={(e) => set({ label: e.target.value })} />
        </Field>
        {uses("base_url") && (
          <Field label="Base URL" htmlFor="is-base" help="Only for a self-hosted service; otherwise the service's own address is used.">
            <Input id="is-base" value={draft.base_url} readOnly={readOnly} onChange={(e) => set({ base_url: e.target.value })} />
          </Field>
        )}
        <Toggle label="Active" checked={draft.is_active} disabled={readOnly} onChange={(v) => set({ is_active: v })} />
        <Toggle label="Default for this service" checked={draft.is_default} disabled={readOnly} onChange={(v) => set({ is_default: v })} />
      </div>

      <section className="space-y-2" aria-label="Credentials">
        <h3 className="font-medium">Credentials</h3>
        <p className="text-xs text-slate-500">Stored encrypted. A saved value is never shown again; type a new one to replace it.</p>
        {draft.credentials.length === 0 && <p className="text-sm text-slate-500">This service needs no credentials.</p>}
        {draft.credentials.map((c, i) => (
          <Field key={c.key} label={c.label + (c.required ? " *" : "")} htmlFor={`cred-${c.key}`} help={c.description || undefined}>
            <Input
              id={`cred-${c.key}`}
              type={c.secret ? "password" : "text"}
              autoComplete="new-password"
              placeholder={c.saved ? SAVED_PLACEHOLDER : ""}
              value={c.typed}
              readOnly={readOnly}
              onChange={(e) => set({ credentials: draft.credentials.map((x, j) => (j === i ? { ...x, typed: e.target.value } : x)) })}
            />
          </Field>
        ))}
      </section>

      {uses("recipients") && (
        <section className="space-y-2" aria-label="Recipients">
          <h3 className="font-medium">Recipients</h3>
          <p className="text-xs text-slate-500">Names the agent may use instead of ids, for example "General" for a Slack channel id.</p>
          {draft.recipients.map((r, i) => {
            const update = (patch: Partial<typeof r>) => set({ recipients: draft.recipients.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
            return (
              <div key={r.name ?? `new-${i}`} className="grid grid-cols-[1fr_1fr_1fr_auto] gap-2" data-testid="recipient-row">
                <Input aria-label={`Recipient name ${i + 1}`} placeholder="Name" value={r.recipient_name} readOnly={readOnly} onChange={(e) => update({ recipient_name: e.target.value })} />
                <Input aria-label={`Recipient id ${i + 1}`} placeholder="Id" value={r.recipient_id} readOnly={readOnly} onChange={(e) => update({ recipient_id: e.target.value })} />
                <LinkSelect doctype="User" value={r.user ?? ""} disabled={readOnly} placeholder="User (optional)" label={`Recipient user ${i + 1}`} onChange={(user) => update({ user })} />
                {!readOnly && (
                  <Button variant="ghost" onClick={() => set({ recipients: draft.recipients.filter((_, j) => j !== i) })}>
                    Remove
                  </Button>
                )}
              </div>
            );
          })}
          {!readOnly && (
            <Button variant="secondary" onClick={() => set({ recipients: [...draft.recipients, { recipient_name: "", recipient_id: "" }] })}>
              Add recipient
            </Button>
          )}
        </section>
      )}

      {uses("allowed_roles") && (
        <section className="space-y-2" aria-label="Who may use it">
          <h3 className="font-medium">Who may use it</h3>
          <p className="text-xs text-slate-500">No roles: anyone allowed to use tools. Otherwise only holders of these roles.</p>
          <div className="flex flex-wrap gap-2">
            {draft.allowed_roles.map((role) => (
              <span key={role} className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-sm dark:bg-slate-800">
                {role}
                {!readOnly && (
                  <button type="button" aria-label={`Remove ${role}`} onClick={() => set({ allowed_roles: draft.allowed_roles.filter((x) => x !== role) })}>
                    ×
                  </button>
                )}
              </span>
            ))}
          </div>
          {!readOnly && (
            <div className="max-w-xs">
              <LinkSelect doctype="Role" value="" placeholder="Add a role…" label="Add a role" onChange={(role) => role && !draft.allowed_roles.includes(role) && set({ allowed_roles: [...draft.allowed_roles, role] })} />
            </div>
          )}
        </section>
      )}

      {(uses("agent") || uses("channel_user") || uses("webhook_secret")) && (
        <section className="grid gap-3 sm:grid-cols-2" aria-label="Channel">
          {uses("agent") && (
            <Field label="Channel agent" htmlFor="is-agent" help="The agent that answers messages arriving through this service.">
              <LinkSelect id="is-agent" doctype="Agent" value={draft.agent} disabled={readOnly} placeholder="None" onChange={(agent) => set({ agent })} />
            </Field>
          )}
          {uses("channel_user") && (
            <Field label="Channel user" htmlFor="is-user" help="Who inbound runs act as when the sender matches no user.">
              <LinkSelect id="is-user" doctype="User" value={draft.channel_user} disabled={readOnly} filters={{ name: ["not in", ["Administrator", "Guest"]] }} placeholder="None" onChange={(channel_user) => set({ channel_user })} />
            </Field>
          )}
          {uses("webhook_secret") && (
            <Field label="Webhook secret" htmlFor="is-webhook-secret" help="Telegram secret token, Slack signing secret or ElevenLabs HMAC secret: messages without it are refused.">
              <Input
                id="is-webhook-secret"
                type="password"
                autoComplete="new-password"
                placeholder={draft.webhook_secret_saved ? SAVED_PLACEHOLDER : ""}
                value={draft.webhook_secret}
                readOnly={readOnly}
                onChange={(e) => set({ webhook_secret: e.target.value })}
              />
            </Field>
          )}
        </section>
      )}

      {!readOnly && (
        <Button onClick={submit} disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
      )}
    </Card>
  );
}
