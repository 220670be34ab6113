import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { LinkSelect } from "../components/FormFields";
import { Badge, Button, Card, EmptyState, ErrorBanner, Field, Notice, PageHeader, Spinner, Table, Toggle } from "../components/ui";
import { CopyButton } from "../flows/CopyButton";
import { deleteDoc, errorMessage, updateDoc } from "../lib/api";
import { can } from "../lib/boot";
import { askConfirm } from "../lib/confirm";
import { formatDate } from "../lib/format";
import { TriggerEditor } from "../triggers/TriggerEditor";
import { listTriggers, regenerateWebhookKey, revealWebhookKey, runTriggerNow, triggersKey, type RunNowResult, type TriggerSummary, type WebhookKey } from "../triggers/triggerApi";
import { describeTrigger } from "../triggers/triggerForm";
import { serverNow, serverTime } from "../lib/serverClock";
import { liveInterval, useHufEvents, useLiveDocs } from "../lib/hufEvents";
import { pollWhileInFlight } from "../lib/liveRuns";

/** A webhook key shown this once, with the URL to POST to. */
function KeyOnce({ trigger, shown, onDismiss }: { trigger: string; shown: WebhookKey; onDismiss: () => void }) {
  return (
    <section aria-label="Webhook key" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <p className="font-semibold">Key of {trigger}: copy it now, it won't be shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-white px-2 py-1 font-mono dark:bg-slate-900" data-testid="webhook-key">
          {shown.key}
        </code>
        <CopyButton text={shown.key} label="Copy key" />
      </div>
      <p>
        Send it as the <code>X-Huf-Webhook-Key</code> header of a POST to <code className="break-all">{shown.webhook_url}</code>.
      </p>
      <Button variant="secondary" onClick={onDismiss}>
        I have copied the key
      </Button>
    </section>
  );
}

function Backoff({ t }: { t: TriggerSummary }) {
  const failures = Number(t.failures ?? 0);
  const waiting = t.backoff_until && (serverTime(t.backoff_until) ?? 0) > serverNow();
  if (!failures && !waiting) return <span className="text-slate-500">—</span>;
  return (
    <span data-testid="trigger-failures">
      {failures} {failures === 1 ? "failure" : "failures"}
      {waiting && <span className="block text-xs text-amber-700 dark:text-amber-400">paused until {formatDate(t.backoff_until)}</span>}
    </span>
  );
}

function TriggerRow({ t, onEdit, onChanged, onDeleted }: { t: TriggerSummary; onEdit: () => void; onChanged: () => void; onDeleted: () => void }) {
  const [outcome, setOutcome] = useState<{ run?: RunNowResult; error?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const enabled = !t.disabled;
  const act = async (work: () => Promise<unknown>, after?: (result: unknown) => void) => {
    setBusy(true);
    try {
      const result = await work();
      after?.(result);
      onChanged();
    } catch (e) {
      setOutcome({ error: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-testid="trigger-row" aria-label={t.name}>
      <td className="px-3 py-2 align-top">
        <p className="font-medium">{t.trigger_name || t.name}</p>
        <p className="text-xs text-slate-500">{describeTrigger(t)}</p>
        {t.disabled_reason && Boolean(t.disabled) && <p className="text-xs text-slate-500">{t.disabled_reason}</p>}
        {t.last_error && (
          <p className="mt-1 max-w-md text-xs text-red-600 dark:text-red-400" data-testid="trigger-last-error">
            Last error: {t.last_error}
          </p>
        )}
        {outcome?.run && (
          <p role="status" className="mt-1 text-xs text-emerald-700 dark:text-emerald-400">
            {/* the run's status as the list has it now (live events refetch it), the answer of Run now before that */}
            Run {(t.last_run === outcome.run.agent_run && t.last_run_status ? t.last_run_status : outcome.run.status).toLowerCase()}: <Link className="underline" to={`/executions/${encodeURIComponent(outcome.run.agent_run)}`}>{outcome.run.agent_run}</Link>
          </p>
        )}
        {outcome?.error && (
          <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
            {outcome.error}
          </p>
        )}
      </td>
      <td className="px-3 py-2 align-top">
        <Badge color="blue">{t.trigger_type}</Badge>
      </td>
      <td className="px-3 py-2 align-top">
        <Toggle
          checked={enabled}
          label={enabled ? "Enabled" : "Disabled"}
          disabled={busy || !can("Agent Trigger", "write")}
          onChange={(v) => void act(() => updateDoc("Agent Trigger", t.name, { disabled: v ? 0 : 1 }))}
        />
      </td>
      <td className="px-3 py-2 align-top text-xs">
        {t.last_execution ? formatDate(t.last_execution) : "—"}
        {t.last_run && (
          <Link className="block text-indigo-600 hover:underline dark:text-indigo-400" to={`/executions/${encodeURIComponent(t.last_run)}`}>
            {t.last_run_status ?? "Run"}
          </Link>
        )}
      </td>
      <td className="px-3 py-2 align-top text-xs">{t.next_execution ? formatDate(t.next_execution) : "—"}</td>
      <td className="px-3 py-2 align-top text-xs">
        <Backoff t={t} />
      </td>
      <td className="px-3 py-2 align-top">
        <div className="flex flex-wrap gap-1">
          {can("Agent Trigger", "write") && (
            <Button
              variant="secondary"
              aria-label={`Run ${t.name} now`}
              title={enabled ? undefined : "Enable the trigger to run it."}
              disabled={busy || !enabled}
              onClick={() => {
                setOutcome(null);
                void act(() => runTriggerNow(t.name), (r) => setOutcome({ run: r as RunNowResult }));
              }}
            >
              Run now
            </Button>
          )}
          <Button variant="ghost" aria-label={`Edit ${t.name}`} onClick={onEdit}>
            {can("Agent Trigger", "write") ? "Edit" : "View"}
          </Button>
          {can("Agent Trigger", "delete") && (
            <Button
              variant="ghost"
              aria-label={`Delete ${t.name}`}
              disabled={busy}
              onClick={() =>
                void askConfirm({ title: `Delete the trigger "${t.name}"?`, message: "It stops starting runs.", confirmLabel: "Delete", destructive: true }).then(
                  (ok) => {
                    if (ok) void act(() => deleteDoc("Agent Trigger", t.name), onDeleted);
                  },
                )
              }
            >
              Delete
            </Button>
          )}
        </div>
      </td>
    </tr>
  );
}

/** The webhook URL of a saved webhook trigger, with copy and "Generate new key". */
function WebhookPanel({ t, onKey }: { t: TriggerSummary; onKey: (key: WebhookKey) => void }) {
  const [error, setError] = useState<string | null>(null);
  const regenerate = async () => {
    const ask = { title: `Generate a new key for the trigger "${t.name}"?`, message: "The old key stops working at once.", confirmLabel: "Generate new key", destructive: true };
    if (!(await askConfirm(ask))) return;
    setError(null);
    try {
      onKey(await regenerateWebhookKey(t.name));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Card className="space-y-2">
      <h2 className="font-semibold">Webhook URL</h2>
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-slate-100 px-2 py-1 text-sm dark:bg-slate-800" data-testid="webhook-url">
          {t.webhook_url}
        </code>
        <CopyButton text={t.webhook_url ?? ""} label="Copy URL" />
        {can("Agent Trigger", "write") && (
          <Button variant="secondary" onClick={() => void regenerate()}>
            Generate new key
          </Button>
        )}
      </div>
      <p className="text-xs text-slate-500">The key is shown only once, when it is made. Lost it? Generate a new one.</p>
      {error && <ErrorBanner message={error} />}
    </Card>
  );
}

export default function Triggers() {
  const { agent = "" } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null | undefined>(undefined);
  const [shownKey, setShownKey] = useState<{ trigger: string; key: WebhookKey } | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: triggersKey(agent) });
  // a run of a trigger moved on (live event): the list's last run and its status; polled without the stream
  const connected = useHufEvents("trigger", refresh);
  const triggers = useQuery({
    queryKey: triggersKey(agent),
    queryFn: () => listTriggers(agent),
    enabled: Boolean(agent),
    refetchInterval: (query) => liveInterval(connected, pollWhileInFlight((query.state.data ?? []).map((t) => t.last_run_status))),
  });
  useLiveDocs("Agent Trigger", (triggers.data ?? []).map((t) => t.name));
  const current = typeof editing === "string" ? triggers.data?.find((t) => t.name === editing) : undefined;

  const onSaved = async (doc: Record<string, unknown>, created: boolean) => {
    const name = String(doc.name);
    refresh();
    setNotice(created ? `Trigger ${name} created.` : null);
    setEditing(name);
    if (created && doc.trigger_type === "Webhook") {
      setKeyError(null);
      try {
        setShownKey({ trigger: name, key: await revealWebhookKey(name) });
      } catch (e) {
        setKeyError(errorMessage(e));
      }
    }
  };

  return (
    <div className="max-w-6xl space-y-4">
      <PageHeader
        title="Triggers"
        description="Start an agent on a schedule, on document events, from a webhook, from another app, or by hand."
        actions={
          agent && can("Agent Trigger", "create") ? (
            <Button onClick={() => setEditing(null)} disabled={editing === null}>
              New trigger
            </Button>
          ) : undefined
        }
      />
      <div className="max-w-sm">
        <Field label="Agent" htmlFor="triggers-agent">
          <LinkSelect
            id="triggers-agent"
            doctype="Agent"
            value={agent}
            placeholder="Choose an agent…"
            onChange={(v) => {
              setEditing(undefined);
              setShownKey(null);
              setNotice(null);
              navigate(v ? `/triggers/${encodeURIComponent(v)}` : "/triggers");
            }}
          />
        </Field>
        {agent && (
          <Link className="mt-1 inline-block text-xs text-indigo-600 hover:underline dark:text-indigo-400" to={`/agents/${encodeURIComponent(agent)}`}>
            Open the agent
          </Link>
        )}
      </div>
      {notice && <Notice message={notice} />}
      {shownKey && <KeyOnce trigger={shownKey.trigger} shown={shownKey.key} onDismiss={() => setShownKey(null)} />}
      {keyError && <ErrorBanner title="The webhook key could not be shown" message={keyError} />}
      {!agent ? (
        <EmptyState title="Choose an agent" description="Its triggers are listed here." />
      ) : triggers.isLoading ? (
        <Spinner />
      ) : triggers.error ? (
        <ErrorBanner title="The triggers could not be loaded" message={errorMessage(triggers.error)} />
      ) : triggers.data?.length === 0 && editing === undefined ? (
        <EmptyState
          title="No triggers yet"
          description={`${agent} runs only when someone chats with it.`}
          action={can("Agent Trigger", "create") ? <Button onClick={() => setEditing(null)}>New trigger</Button> : undefined}
        />
      ) : (
        triggers.data &&
        triggers.data.length > 0 && (
          <Table head={["Trigger", "Kind", "Enabled", "Last run", "Next run", "Failures", "Actions"]}>
            {triggers.data.map((t) => (
              <TriggerRow
                key={t.name}
                t={t}
                onEdit={() => setEditing(t.name)}
                onChanged={refresh}
                onDeleted={() => setEditing((current) => (current === t.name ? undefined : current))}
              />
            ))}
          </Table>
        )
      )}
      {current?.trigger_type === "Webhook" && current.webhook_url && <WebhookPanel t={current} onKey={(key) => setShownKey({ trigger: current.name, key })} />}
      {agent && editing !== undefined && (
        <TriggerEditor key={editing ?? "new"} agent={agent} name={editing} onSaved={(doc, created) => void onSaved(doc, created)} onClose={() => setEditing(undefined)} />
      )}
    </div>
  );
}
