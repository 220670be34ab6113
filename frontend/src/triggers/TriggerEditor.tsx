import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { LinkSelect } from "../components/FormFields";
import { Button, Card, ErrorBanner, Field, Input, Notice, Select, Spinner, Textarea, Toggle } from "../components/ui";
import { errorMessage, getDoc, insertDoc, updateDoc } from "../lib/api";
import { can, docEvents } from "../lib/boot";
import { askLeave } from "../lib/leaveGuard";
import { leaveQuestion, useLeaveGuard } from "../lib/useLeaveGuard";
import { useSaveShortcut } from "../lib/useSaveShortcut";
import {
  INTERVALS,
  KIND_HELP,
  RUN_AS_KINDS,
  TEMPLATE_NAMES,
  TRIGGER_KINDS,
  draftFromDoc,
  emptyDraft,
  serializeDraft,
  validateDraft,
  type AttachmentRow,
  type OnceMode,
  type TriggerDraft,
  type TriggerKind,
} from "./triggerForm";

function Labelled({ id, label, error, help, children }: { id: string; label: string; error?: string; help?: string; children: ReactNode }) {
  return (
    <div>
      <Field label={label} htmlFor={id} error={Boolean(error)} help={help}>
        {children}
      </Field>
      {error && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  );
}

function AttachmentRows({ rows, onChange, errors, readOnly }: { rows: AttachmentRow[]; onChange: (rows: AttachmentRow[]) => void; errors: Record<string, string>; readOnly: boolean }) {
  const update = (i: number, patch: Partial<AttachmentRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="space-y-2 md:col-span-2">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">File attachments</legend>
      <p className="text-xs text-slate-500">Files in these Attach fields reach the agent as content: text of documents, images for vision models.</p>
      {rows.map((row, i) => (
        <div key={i} className="flex flex-wrap items-center gap-2" data-testid="attachment-row">
          <Select aria-label={`Row ${i + 1} source`} className="w-36" value={row.source_type} disabled={readOnly} onChange={(e) => update(i, { source_type: e.target.value as AttachmentRow["source_type"] })}>
            <option value="Field">Field</option>
            <option value="Child Table">Child Table</option>
          </Select>
          {row.source_type === "Child Table" && (
            <Input aria-label={`Row ${i + 1} child table field`} className="w-44" placeholder="items" value={row.child_table} readOnly={readOnly} onChange={(e) => update(i, { child_table: e.target.value })} />
          )}
          <Input aria-label={`Row ${i + 1} Attach field`} className="w-44" placeholder="attachment" value={row.field_name} readOnly={readOnly} onChange={(e) => update(i, { field_name: e.target.value })} />
          {!readOnly && (
            <Button variant="ghost" aria-label={`Remove row ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Remove
            </Button>
          )}
          {errors[`file_attachments.${i}`] && <p className="w-full text-xs text-red-600">{errors[`file_attachments.${i}`]}</p>}
        </div>
      ))}
      {!readOnly && (
        <Button variant="secondary" onClick={() => onChange([...rows, { source_type: "Field", child_table: "", field_name: "" }])}>
          Add attachment field
        </Button>
      )}
    </fieldset>
  );
}

/** The fields of one kind of trigger. */
function KindFields({ draft, set, errors, readOnly }: { draft: TriggerDraft; set: (patch: Partial<TriggerDraft>) => void; errors: Record<string, string>; readOnly: boolean }) {
  switch (draft.trigger_type) {
    case "Schedule":
      return (
        <>
          <Labelled id="trigger-interval" label="Runs" error={errors.scheduled_interval}>
            <Select id="trigger-interval" value={draft.scheduled_interval} disabled={readOnly} onChange={(e) => set({ scheduled_interval: e.target.value })}>
              {INTERVALS.map((i) => (
                <option key={i} value={i}>
                  {i === "Cron" ? "On a cron schedule" : i === "Once" ? "Once (then it disables itself)" : i}
                </option>
              ))}
            </Select>
          </Labelled>
          {draft.scheduled_interval === "Once" ? (
            <>
              <Labelled id="trigger-once-mode" label="When">
                <Select id="trigger-once-mode" value={draft.once_mode} disabled={readOnly} onChange={(e) => set({ once_mode: e.target.value as OnceMode })}>
                  <option value="in">In a number of minutes</option>
                  <option value="at">At a date and time</option>
                </Select>
              </Labelled>
              {draft.once_mode === "at" ? (
                <Labelled id="trigger-run-at" label="Run at" error={errors.run_at} help="In the site's time zone. After the run the trigger disables itself.">
                  <Input id="trigger-run-at" type="datetime-local" value={draft.run_at} readOnly={readOnly} invalid={Boolean(errors.run_at)} onChange={(e) => set({ run_at: e.target.value })} />
                </Labelled>
              ) : (
                <Labelled id="trigger-run-in" label="In (minutes)" error={errors.run_in_minutes} help="Counted from saving. After the run the trigger disables itself.">
                  <Input id="trigger-run-in" type="number" min={1} step={1} value={draft.run_in_minutes} readOnly={readOnly} invalid={Boolean(errors.run_in_minutes)} onChange={(e) => set({ run_in_minutes: e.target.value })} />
                </Labelled>
              )}
            </>
          ) : draft.scheduled_interval === "Cron" ? (
            <Labelled id="trigger-cron" label="Cron expression" error={errors.cron_expression} help="Five fields: minute hour day month weekday, e.g. 0 9 * * 1-5.">
              <Input id="trigger-cron" className="font-mono" value={draft.cron_expression} readOnly={readOnly} invalid={Boolean(errors.cron_expression)} onChange={(e) => set({ cron_expression: e.target.value })} />
            </Labelled>
          ) : (
            <Labelled id="trigger-count" label="Every" error={errors.interval_count} help="1: every hour/day/…, 2: every other one.">
              <Input id="trigger-count" type="number" min={1} step={1} value={draft.interval_count} readOnly={readOnly} invalid={Boolean(errors.interval_count)} onChange={(e) => set({ interval_count: e.target.value })} />
            </Labelled>
          )}
        </>
      );
    case "Doc Event":
      return (
        <>
          <Labelled id="trigger-doctype" label="DocType" error={errors.reference_doctype}>
            <LinkSelect id="trigger-doctype" doctype="DocType" filters={{ istable: 0 }} value={draft.reference_doctype} disabled={readOnly} invalid={Boolean(errors.reference_doctype)} onChange={(v) => set({ reference_doctype: v })} placeholder="Choose a DocType…" />
          </Labelled>
          <Labelled id="trigger-event" label="Event" error={errors.doc_event}>
            <Select id="trigger-event" value={draft.doc_event} disabled={readOnly} onChange={(e) => set({ doc_event: e.target.value })}>
              {docEvents().map((e) => (
                <option key={e} value={e}>
                  {e}
                </option>
              ))}
            </Select>
          </Labelled>
          <div className="md:col-span-2">
            <Labelled id="trigger-condition" label="Condition" help="Optional: a Python-like expression over doc, e.g. doc.status == &quot;Open&quot;. The agent runs only when it is true.">
              <Input id="trigger-condition" className="font-mono" value={draft.condition} readOnly={readOnly} onChange={(e) => set({ condition: e.target.value })} />
            </Labelled>
          </div>
          <AttachmentRows rows={draft.file_attachments} onChange={(rows) => set({ file_attachments: rows })} errors={errors} readOnly={readOnly} />
        </>
      );
    case "Webhook":
      return (
        <Labelled id="trigger-slug" label="Webhook slug" error={errors.webhook_slug} help="The last part of the URL; left empty, it is made from the trigger's name.">
          <Input id="trigger-slug" value={draft.webhook_slug} readOnly={readOnly} invalid={Boolean(errors.webhook_slug)} onChange={(e) => set({ webhook_slug: e.target.value })} />
        </Labelled>
      );
    case "App Event":
      return (
        <>
          <Labelled id="trigger-app" label="App name" error={errors.app_name}>
            <Input id="trigger-app" value={draft.app_name} readOnly={readOnly} invalid={Boolean(errors.app_name)} onChange={(e) => set({ app_name: e.target.value })} />
          </Labelled>
          <Labelled id="trigger-app-event" label="Event name" error={errors.event_name}>
            <Input id="trigger-app-event" value={draft.event_name} readOnly={readOnly} invalid={Boolean(errors.event_name)} onChange={(e) => set({ event_name: e.target.value })} />
          </Labelled>
        </>
      );
    default:
      return null;
  }
}

/** Create or edit one trigger of `agent`; `name` null: a new one. */
export function TriggerEditor({ agent, name, onSaved, onClose }: { agent: string; name: string | null; onSaved: (doc: Record<string, unknown>, created: boolean) => void; onClose: () => void }) {
  const isNew = name === null;
  const readOnly = !(isNew ? can("Agent Trigger", "create") : can("Agent Trigger", "write"));
  const [draft, setDraft] = useState<TriggerDraft>(emptyDraft());
  // what the form started from (the stored trigger, or an empty one): edits differ from it
  const [base, setBase] = useState<TriggerDraft | null>(isNew ? emptyDraft() : null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const stored = useQuery({ queryKey: ["doc", "Agent Trigger", name], queryFn: () => getDoc<Record<string, unknown>>("Agent Trigger", name ?? ""), enabled: !isNew });
  useEffect(() => {
    if (stored.data) {
      setDraft(draftFromDoc(stored.data));
      setBase(draftFromDoc(stored.data));
    }
  }, [stored.data]);

  const set = (patch: Partial<TriggerDraft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const save = useMutation({
    mutationFn: () => {
      const payload = serializeDraft(draft, agent);
      return isNew ? insertDoc<Record<string, unknown>>("Agent Trigger", payload) : updateDoc<Record<string, unknown>>("Agent Trigger", name ?? "", payload);
    },
    onSuccess: (doc) => {
      setSaved(true);
      setDraft(draftFromDoc(doc));
      setBase(draftFromDoc(doc));
      onSaved(doc, isNew);
    },
  });
  const dirty = !readOnly && !save.isPending && base !== null && JSON.stringify(draft) !== JSON.stringify(base);
  useLeaveGuard(dirty, leaveQuestion("this trigger"));
  const close = () => {
    if (!dirty) onClose();
    else void askLeave(leaveQuestion("this trigger")).then((leave) => leave && onClose());
  };
  const submit = () => {
    const found = validateDraft(draft);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };
  useSaveShortcut(submit, dirty);

  if (!isNew && stored.isLoading) return <Spinner />;
  if (!isNew && stored.error) return <ErrorBanner title="This trigger could not be opened" message={errorMessage(stored.error)} />;
  const kind = draft.trigger_type;
  const title = isNew ? "New trigger" : `Edit ${name}`;
  return (
    <Card className="space-y-4">
      <form
        aria-label={title}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold">{title}</h2>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
            {!readOnly && (
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : isNew ? "Create trigger" : "Save"}
              </Button>
            )}
          </div>
        </div>
        <div aria-live="polite" className="space-y-2">
          {Object.keys(errors).length > 0 && <ErrorBanner title="Check the form" message={Object.values(errors).join(" ")} />}
          {save.error && <ErrorBanner title="Couldn't save the trigger" message={errorMessage(save.error)} />}
          {saved && !save.error && <Notice message={isNew ? "Trigger created." : "Saved."} />}
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          <Labelled id="trigger-kind" label="Kind" help={KIND_HELP[kind]}>
            <Select id="trigger-kind" value={kind} disabled={readOnly || !isNew} onChange={(e) => set({ trigger_type: e.target.value as TriggerKind })}>
              {TRIGGER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </Select>
          </Labelled>
          <Labelled id="trigger-name" label="Name" help={isNew ? "Optional: left empty, it is named after the agent and kind." : "The name can't be changed."}>
            <Input id="trigger-name" value={draft.trigger_name} readOnly={readOnly || !isNew} onChange={(e) => set({ trigger_name: e.target.value })} />
          </Labelled>
          <KindFields draft={draft} set={set} errors={errors} readOnly={readOnly} />
          {RUN_AS_KINDS.includes(kind) && (
            <Labelled id="trigger-run-as" label="Run as" help="The user the runs act as; empty: the trigger's owner. Only a System Manager may pick someone else.">
              <LinkSelect id="trigger-run-as" doctype="User" filters={{ enabled: 1 }} value={draft.run_as} disabled={readOnly} onChange={(v) => set({ run_as: v })} placeholder="The trigger's owner" />
            </Labelled>
          )}
          <div className="md:col-span-2">
            <Labelled
              id="trigger-prompt"
              label="Prompt"
              help={`What the agent is asked each time; empty: the agent's instructions.${TEMPLATE_NAMES[kind] ? ` You may use ${TEMPLATE_NAMES[kind]}.` : ""}`}
            >
              <Textarea id="trigger-prompt" rows={3} value={draft.prompt} readOnly={readOnly} onChange={(e) => set({ prompt: e.target.value })} />
            </Labelled>
          </div>
          <div className="md:col-span-2">
            <Toggle checked={!draft.disabled} onChange={(v) => set({ disabled: !v })} label="Enabled" disabled={readOnly} />
          </div>
        </div>
      </form>
    </Card>
  );
}
