/** Agent Trigger forms: the fields of each kind, checks before saving, and the record sent to the server. */
import { docEvents } from "../lib/boot";

export const TRIGGER_KINDS = ["Schedule", "Doc Event", "Webhook", "App Event", "Manual"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const KIND_HELP: Record<TriggerKind, string> = {
  Schedule: "Runs the agent every hour, day, week…, on a cron schedule, or once at a set time.",
  "Doc Event": "Runs the agent when a document is created, saved, submitted… ",
  Webhook: "Runs the agent when another system POSTs to the trigger's URL with its key.",
  "App Event": "Runs the agent when an app calls huf.fire_app_event(app, event, payload).",
  Manual: "Runs the agent only when someone presses Run now.",
};

export const INTERVALS = ["Hourly", "Daily", "Weekly", "Monthly", "Yearly", "Cron", "Once"];
/** How a one-shot schedule (Once) is given: a date and time, or minutes from saving. */
export type OnceMode = "at" | "in";
/** The kinds whose runs act as Run As (or the trigger's owner) rather than the person who pressed Run now. */
export const RUN_AS_KINDS: TriggerKind[] = ["Doc Event", "Schedule", "Webhook", "App Event"];
/** What a prompt template of each kind may refer to. */
export const TEMPLATE_NAMES: Partial<Record<TriggerKind, string>> = {
  "Doc Event": "{{ doc.fieldname }}",
  Webhook: "{{ payload.key }}",
  "App Event": "{{ payload.key }}",
};

export interface AttachmentRow {
  source_type: "Field" | "Child Table";
  child_table: string;
  field_name: string;
}

export interface TriggerDraft {
  trigger_name: string;
  trigger_type: TriggerKind;
  disabled: boolean;
  run_as: string;
  reference_doctype: string;
  doc_event: string;
  condition: string;
  file_attachments: AttachmentRow[];
  scheduled_interval: string;
  interval_count: string;
  cron_expression: string;
  once_mode: OnceMode;
  /** A datetime-local value, YYYY-MM-DDTHH:MM (the site's time zone on the server). */
  run_at: string;
  run_in_minutes: string;
  webhook_slug: string;
  app_name: string;
  event_name: string;
  prompt: string;
  /** The other keys of the stored metadata, kept as they were. */
  metadata: Record<string, unknown>;
}

export function emptyDraft(kind: TriggerKind = "Schedule"): TriggerDraft {
  return {
    trigger_name: "",
    trigger_type: kind,
    disabled: false,
    run_as: "",
    reference_doctype: "",
    doc_event: "on_update",
    condition: "",
    file_attachments: [],
    scheduled_interval: "Daily",
    interval_count: "1",
    cron_expression: "",
    once_mode: "in",
    run_at: "",
    run_in_minutes: "60",
    webhook_slug: "",
    app_name: "",
    event_name: "",
    prompt: "",
    metadata: {},
  };
}

const str = (value: unknown): string => (value === null || value === undefined ? "" : String(value));

function parseMetadata(value: unknown): Record<string, unknown> {
  if (value && typeof value === "object" && !Array.isArray(value)) return { ...(value as Record<string, unknown>) };
  if (typeof value === "string" && value.trim()) {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      /* not JSON: treated as empty */
    }
  }
  return {};
}

/** A stored Agent Trigger as form values. */
export function draftFromDoc(doc: Record<string, unknown>): TriggerDraft {
  const metadata = parseMetadata(doc.metadata);
  const prompt = str(metadata.prompt);
  delete metadata.prompt;
  const kind = (TRIGGER_KINDS as readonly string[]).includes(str(doc.trigger_type)) ? (doc.trigger_type as TriggerKind) : "Manual";
  const rows = Array.isArray(doc.file_attachments) ? (doc.file_attachments as Record<string, unknown>[]) : [];
  return {
    ...emptyDraft(kind),
    trigger_name: str(doc.trigger_name),
    disabled: Boolean(doc.disabled),
    run_as: str(doc.run_as),
    reference_doctype: str(doc.reference_doctype),
    doc_event: str(doc.doc_event) || "on_update",
    condition: str(doc.condition),
    file_attachments: rows.map((r) => ({
      source_type: r.source_type === "Child Table" ? "Child Table" : "Field",
      child_table: str(r.child_table),
      field_name: str(r.field_name),
    })),
    scheduled_interval: str(doc.scheduled_interval) || "Daily",
    interval_count: doc.interval_count ? String(doc.interval_count) : "1",
    cron_expression: str(doc.cron_expression),
    once_mode: doc.run_at ? "at" : "in",
    run_at: str(doc.run_at).replace(" ", "T").slice(0, 16),
    webhook_slug: str(doc.webhook_slug),
    app_name: str(doc.app_name),
    event_name: str(doc.event_name),
    prompt,
    metadata,
  };
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,79}$/;
const CRON_FIELD = /^[\d*,/\-A-Za-z?LW#]+$/;

/** Problems the server would refuse, by field, in words a person can act on (empty: fine to save). */
export function validateDraft(draft: TriggerDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  switch (draft.trigger_type) {
    case "Schedule":
      if (!INTERVALS.includes(draft.scheduled_interval)) errors.scheduled_interval = "Choose how often the agent runs.";
      else if (draft.scheduled_interval === "Once") {
        if (draft.once_mode === "at" && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(draft.run_at)) errors.run_at = "Choose the date and time of the one run.";
        const minutes = Number(draft.run_in_minutes);
        if (draft.once_mode === "in" && (!Number.isInteger(minutes) || minutes < 1)) errors.run_in_minutes = "In must be a whole number of minutes, at least 1.";
      } else if (draft.scheduled_interval === "Cron") {
        const parts = draft.cron_expression.trim().split(/\s+/).filter(Boolean);
        if (parts.length !== 5 || !parts.every((p) => CRON_FIELD.test(p)))
          errors.cron_expression = "A cron expression has five fields, e.g. 0 9 * * 1-5.";
      } else {
        const count = Number(draft.interval_count);
        if (!Number.isInteger(count) || count < 1) errors.interval_count = "Every must be a whole number of at least 1.";
      }
      break;
    case "Doc Event":
      if (!draft.reference_doctype) errors.reference_doctype = "Choose the DocType whose documents start the agent.";
      if (!docEvents().includes(draft.doc_event)) errors.doc_event = "Choose the event.";
      draft.file_attachments.forEach((row, i) => {
        if (!row.field_name.trim()) errors[`file_attachments.${i}`] = `Attachment row ${i + 1}: enter the Attach field.`;
        else if (row.source_type === "Child Table" && !row.child_table.trim())
          errors[`file_attachments.${i}`] = `Attachment row ${i + 1}: enter the child table field.`;
      });
      break;
    case "Webhook":
      if (draft.webhook_slug.trim() && !SLUG.test(draft.webhook_slug.trim()))
        errors.webhook_slug = "The slug may contain only lowercase letters, digits, - and _ (at most 80).";
      break;
    case "App Event":
      if (!draft.app_name.trim()) errors.app_name = "Enter the app that fires the event.";
      if (!draft.event_name.trim()) errors.event_name = "Enter the event name.";
      break;
    default:
      break;
  }
  return errors;
}

/** The Agent Trigger record to insert or update: the common fields and only those of its kind. */
export function serializeDraft(draft: TriggerDraft, agent: string): Record<string, unknown> {
  const metadata: Record<string, unknown> = { ...draft.metadata };
  if (draft.prompt.trim()) metadata.prompt = draft.prompt;
  const out: Record<string, unknown> = {
    agent,
    trigger_type: draft.trigger_type,
    disabled: draft.disabled ? 1 : 0,
    metadata: Object.keys(metadata).length ? JSON.stringify(metadata) : null,
  };
  if (draft.trigger_name.trim()) out.trigger_name = draft.trigger_name.trim();
  if (RUN_AS_KINDS.includes(draft.trigger_type)) out.run_as = draft.run_as || null;
  switch (draft.trigger_type) {
    case "Schedule":
      out.scheduled_interval = draft.scheduled_interval;
      if (draft.scheduled_interval === "Once") {
        if (draft.once_mode === "in") out.run_in_minutes = Number(draft.run_in_minutes);
        else Object.assign(out, { run_at: `${draft.run_at.replace("T", " ").slice(0, 16)}:00`, run_in_minutes: 0 });
      } else if (draft.scheduled_interval === "Cron") out.cron_expression = draft.cron_expression.trim();
      else out.interval_count = Number(draft.interval_count);
      break;
    case "Doc Event":
      out.reference_doctype = draft.reference_doctype;
      out.doc_event = draft.doc_event;
      out.condition = draft.condition.trim() || null;
      out.file_attachments = draft.file_attachments.map((row) => ({
        source_type: row.source_type,
        child_table: row.source_type === "Child Table" ? row.child_table.trim() : null,
        field_name: row.field_name.trim(),
      }));
      break;
    case "Webhook":
      out.webhook_slug = draft.webhook_slug.trim().toLowerCase() || null;
      break;
    case "App Event":
      out.app_name = draft.app_name.trim();
      out.event_name = draft.event_name.trim();
      break;
    default:
      break;
  }
  return out;
}

/** "every 2 days", "cron 0 9 * * 1-5", "once at 2026-12-24 09:00", "ToDo on_update", "POST /…/slug", "my_app: order_paid", "by hand". */
export function describeTrigger(t: {
  trigger_type: string;
  scheduled_interval?: string | null;
  interval_count?: number | null;
  cron_expression?: string | null;
  run_at?: string | null;
  reference_doctype?: string | null;
  doc_event?: string | null;
  webhook_slug?: string | null;
  app_name?: string | null;
  event_name?: string | null;
}): string {
  switch (t.trigger_type) {
    case "Schedule": {
      if (t.scheduled_interval === "Cron") return `cron ${t.cron_expression ?? ""}`.trim();
      if (t.scheduled_interval === "Once") return t.run_at ? `once at ${t.run_at.slice(0, 16)}` : "once";
      const unit = { Hourly: "hour", Daily: "day", Weekly: "week", Monthly: "month", Yearly: "year" }[t.scheduled_interval ?? ""];
      if (!unit) return "schedule";
      const n = Number(t.interval_count) || 1;
      return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
    }
    case "Doc Event":
      return `${t.reference_doctype ?? ""} ${t.doc_event ?? ""}`.trim();
    case "Webhook":
      return t.webhook_slug ? `webhook ${t.webhook_slug}` : "webhook";
    case "App Event":
      return `${t.app_name ?? ""}: ${t.event_name ?? ""}`;
    default:
      return "by hand (Run now)";
  }
}
