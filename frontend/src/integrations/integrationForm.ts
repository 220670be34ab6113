/** Pure rules of the Integrations page: catalog grouping, the write-only credentials form, the save payload. */
import type { Dict } from "../lib/api";
import { isMask, MASK } from "../lib/secretRows";
import type { CredentialSpec, ServiceSummary, SettingsSummary } from "./integrationsApi";

const truthy = (value: unknown): boolean => value === true || value === 1 || value === "1";

/** The service's credentials schema (stored as JSON text or already parsed); malformed entries are dropped. */
export function credentialSpecs(raw: ServiceSummary["required_credentials"]): CredentialSpec[] {
  let list: unknown = raw;
  if (typeof raw === "string") {
    try {
      list = JSON.parse(raw || "[]");
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is CredentialSpec => Boolean(item) && typeof (item as Dict).key === "string" && Boolean((item as Dict).key));
}

/** Services grouped by category (alphabetical, "Other" and uncategorised last), services by name. */
export function groupByCategory(services: ServiceSummary[]): Array<{ category: string; services: ServiceSummary[] }> {
  const groups = new Map<string, ServiceSummary[]>();
  for (const service of services) {
    const category = service.category || "Other";
    groups.set(category, [...(groups.get(category) ?? []), service]);
  }
  const rank = (category: string) => (category === "Other" ? 1 : 0);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([category, list]) => ({ category, services: [...list].sort((a, b) => serviceLabel(a).localeCompare(serviceLabel(b))) }));
}

export type ServiceStatus = "Connected" | "Connection failed" | "Not tested" | "Incomplete" | "Not configured";

/** The settings the service's tools use: the active default one, else the first active one (as the server). */
export function settingsInUse(service: ServiceSummary): SettingsSummary | undefined {
  const active = service.settings.filter((s) => truthy(s.is_active));
  return active.find((s) => truthy(s.is_default)) ?? active[0];
}

/** What the last Test connection of a settings record found: "ok", "failed", "unknown" (a result stored
 * before its outcome was) or "untested"; with the server's message and when. */
export interface ConnectionState {
  outcome: "ok" | "failed" | "unknown" | "untested";
  message: string;
  at: string | null;
}

export function connectionState(settings: SettingsSummary): ConnectionState {
  const at = settings.last_connection_test || null;
  const message = settings.last_connection_result || "";
  if (settings.last_connection_status === "Connected") return { outcome: "ok", message, at };
  if (settings.last_connection_status === "Failed") return { outcome: "failed", message: message || "The connection test failed.", at };
  return { outcome: message ? "unknown" : "untested", message, at };
}

/** The service's status: the settings in use missing a credential, else the outcome of their last test
 * ("Connected" only after a test that passed). */
export function serviceStatus(service: ServiceSummary): ServiceStatus {
  const used = settingsInUse(service);
  if (!used) return service.settings.length ? "Incomplete" : "Not configured";
  if ((used.missing_credentials ?? []).length) return "Incomplete";
  const { outcome } = connectionState(used);
  return outcome === "ok" ? "Connected" : outcome === "failed" ? "Connection failed" : "Not tested";
}

/** Whether the settings form has `field`: the fields the service uses (the server's table); all without one. */
export const usesField = (fields: string[] | null | undefined, field: string): boolean => !fields || fields.includes(field);

/** The display name of a service ("Slack"), else its key. */
export const serviceLabel = (service: ServiceSummary): string => service.label || service.service;

/** The OAuth button: "Connect Google" for Google's services (Gmail, Calendar, Sheets), else "Connect <service>". */
export const connectLabel = (service: ServiceSummary): string =>
  /google|gmail/i.test(`${service.service} ${service.label ?? ""}`) ? "Connect Google" : `Connect ${serviceLabel(service)}`;

export const isOAuth = (authType: string | null | undefined): boolean => authType === "OAuth 2.0";

/** One input of the credentials form: what the user typed, and whether a value is already saved. */
export interface CredentialInput {
  key: string;
  label: string;
  secret: boolean;
  required: boolean;
  description: string;
  saved: boolean;
  typed: string;
  rowName?: string;
}

type Row = Dict & { key?: unknown; value?: unknown; name?: unknown };

/** The credentials form of a settings record: one input per schema key, then any other saved key. */
export function credentialInputs(specs: CredentialSpec[], rows: Row[]): CredentialInput[] {
  const byKey = new Map(rows.map((row) => [String(row.key ?? ""), row]));
  const input = (key: string, spec: CredentialSpec | undefined): CredentialInput => {
    const row = byKey.get(key);
    return {
      key,
      label: spec?.label || key,
      secret: spec ? spec.secret === undefined || truthy(spec.secret) : true,
      required: truthy(spec?.required),
      description: spec?.description ?? "",
      saved: Boolean(row) && (isMask(row?.value) || Boolean(row?.value)),
      typed: "",
      rowName: row?.name ? String(row.name) : undefined,
    };
  };
  const known = new Set(specs.map((s) => s.key));
  return [...specs.map((spec) => input(spec.key, spec)), ...[...byKey.keys()].filter((k) => k && !known.has(k)).map((k) => input(k, undefined))];
}

/** Required credentials with neither a saved value nor a typed one. */
export function missingCredentials(inputs: CredentialInput[]): string[] {
  return inputs.filter((i) => i.required && !i.saved && !i.typed.trim()).map((i) => i.label);
}

/** The credentials child rows to save: a typed value replaces, an untouched saved one keeps its mask (never re-sent). */
export function credentialRows(inputs: CredentialInput[]): Dict[] {
  const rows: Dict[] = [];
  for (const i of inputs) {
    const value = i.typed.trim() ? i.typed : i.saved ? MASK : "";
    if (!value) continue;
    rows.push({ ...(i.rowName ? { name: i.rowName } : {}), key: i.key, value });
  }
  return rows;
}

export interface RecipientRow {
  name?: string;
  recipient_name: string;
  recipient_id: string;
  user?: string;
}

/** Recipients to save: rows with both a name and an id; an incomplete row is reported, never dropped silently. */
export function recipientProblems(rows: RecipientRow[]): string[] {
  return rows
    .map((row, i) => (row.recipient_name.trim() && row.recipient_id.trim() ? "" : `Recipient ${i + 1} needs a name and an id.`))
    .filter(Boolean);
}

export interface SettingsDraft {
  service: string;
  label: string;
  is_active: boolean;
  is_default: boolean;
  base_url: string;
  agent: string;
  channel_user: string;
  allowed_roles: string[];
  recipients: RecipientRow[];
  credentials: CredentialInput[];
  /** The webhook secret (Telegram secret token, Slack signing secret, ElevenLabs HMAC secret): write-only too. */
  webhook_secret_saved: boolean;
  webhook_secret: string;
  /** The fields the service uses (ServiceSummary.settings_fields); null: all. Only these are shown and sent. */
  fields: string[] | null;
}

/** The draft of a loaded (or new) Integration Settings record. */
export function draftFromDoc(service: string, specs: CredentialSpec[], doc: Dict | null, fields: string[] | null = null): SettingsDraft {
  const list = (field: string) => (Array.isArray(doc?.[field]) ? (doc?.[field] as Row[]) : []);
  const text = (field: string) => (doc?.[field] == null ? "" : String(doc[field]));
  return {
    service,
    label: text("label"),
    is_active: doc ? truthy(doc.is_active) : true,
    is_default: doc ? truthy(doc.is_default) : false,
    base_url: text("base_url"),
    agent: text("agent"),
    channel_user: text("channel_user"),
    allowed_roles: list("allowed_roles").map((r) => String(r.role ?? "")).filter(Boolean),
    recipients: list("recipients").map((r) => ({
      name: r.name ? String(r.name) : undefined,
      recipient_name: String(r.recipient_name ?? ""),
      recipient_id: String(r.recipient_id ?? ""),
      user: r.user ? String(r.user) : "",
    })),
    credentials: credentialInputs(specs, list("credentials")),
    webhook_secret_saved: Boolean(doc?.webhook_secret),
    webhook_secret: "",
    fields,
  };
}

/** The record to send to /api/resource: the fields the service uses (child tables whole; secrets only when
 * typed), so saving never clears a field the form does not show. */
export function settingsPayload(draft: SettingsDraft): Dict {
  const all: Dict = {
    service: draft.service,
    label: draft.label.trim(),
    is_active: draft.is_active ? 1 : 0,
    is_default: draft.is_default ? 1 : 0,
    base_url: draft.base_url.trim(),
    agent: draft.agent || null,
    channel_user: draft.channel_user || null,
    allowed_roles: draft.allowed_roles.map((role) => ({ role })),
    recipients: draft.recipients.map((r) => ({
      ...(r.name ? { name: r.name } : {}),
      recipient_name: r.recipient_name.trim(),
      recipient_id: r.recipient_id.trim(),
      user: r.user || null,
    })),
    credentials: credentialRows(draft.credentials),
    // an untouched saved secret is not sent (the server keeps it)
    ...(draft.webhook_secret.trim() ? { webhook_secret: draft.webhook_secret } : {}),
  };
  return Object.fromEntries(Object.entries(all).filter(([key]) => key === "service" || usesField(draft.fields, key)));
}

/** Channel URLs to paste into the service, with a readable label each. */
export function channelUrlList(urls: Record<string, string | undefined> | null | undefined): Array<{ label: string; url: string }> {
  const LABELS: Record<string, string> = {
    telegram_webhook: "Telegram webhook URL",
    slack_events: "Slack Events request URL",
    elevenlabs_webhook: "ElevenLabs webhook URL",
  };
  return Object.entries(urls ?? {})
    .filter(([, url]) => Boolean(url))
    .map(([key, url]) => ({ label: LABELS[key] ?? key, url: String(url) }));
}
