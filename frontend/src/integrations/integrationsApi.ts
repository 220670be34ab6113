/** The server calls of the Integrations page (huf.api.integrations and Integration Settings records). */
import { call, getDoc, insertDoc, runDocMethod, updateDoc, type Dict } from "../lib/api";

const API = "huf.api.integrations";

export interface CredentialSpec {
  key: string;
  label?: string;
  secret?: boolean | 0 | 1;
  required?: boolean | 0 | 1;
  description?: string;
}

export interface ChannelUrls {
  telegram_webhook?: string;
  slack_events?: string;
  elevenlabs_webhook?: string;
}

export interface SettingsSummary {
  name: string;
  label: string | null;
  is_active: 0 | 1 | boolean;
  is_default: 0 | 1 | boolean;
  base_url: string | null;
  credential_keys: string[];
  missing_credentials?: string[];
  recipients: Array<{ recipient_name: string; recipient_id: string; user?: string | null }>;
  allowed_roles: string[];
  agent: string | null;
  channel_user: string | null;
  oauth_status: string | null;
  last_connection_test: string | null;
  /** The outcome of the last Test connection ("" or null: never tested, or tested before it was stored). */
  last_connection_status?: "Connected" | "Failed" | "" | null;
  last_connection_result: string | null;
  channel_urls: ChannelUrls;
}

export interface ServiceSummary {
  service: string;
  label?: string | null;
  category: string | null;
  description: string | null;
  is_builtin: 0 | 1 | boolean;
  auth_type: string | null;
  required_credentials: CredentialSpec[] | string | null;
  /** The Integration Settings fields this service uses (huf.ai.integrations.settings.SERVICE_FIELDS). */
  settings_fields?: string[];
  settings: SettingsSummary[];
}

export interface ConnectionResult {
  ok: boolean;
  message: string;
}

/** The address where the user grants access to an OAuth 2.0 service ("Connect Google"). */
export function startOAuth(settings: string): Promise<{ authorize_url: string }> {
  return call<{ authorize_url: string }>(`${API}.start_oauth`, { settings });
}

export const INTEGRATIONS_KEY = ["integrations"];
export const SETTINGS_DOCTYPE = "Integration Settings";
export const SERVICE_DOCTYPE = "Integration Service";

export function listIntegrations(): Promise<ServiceSummary[]> {
  return call<ServiceSummary[]>(`${API}.list_integrations`, {}, "GET");
}

export function testConnection(settings: string): Promise<ConnectionResult> {
  return call<ConnectionResult>(`${API}.test_connection`, { settings });
}

/** Register the settings' bot webhook with Telegram (the settings' `setup_telegram_webhook`). */
export function setupTelegramWebhook(settings: string): Promise<unknown> {
  return runDocMethod(SETTINGS_DOCTYPE, settings, "setup_telegram_webhook");
}

export function loadSettings(name: string): Promise<Dict> {
  return getDoc<Dict>(SETTINGS_DOCTYPE, name);
}

export function saveSettings(name: string | undefined, doc: Dict): Promise<Dict> {
  return name ? updateDoc<Dict>(SETTINGS_DOCTYPE, name, doc) : insertDoc<Dict>(SETTINGS_DOCTYPE, doc);
}

export function createService(doc: Dict): Promise<Dict> {
  return insertDoc<Dict>(SERVICE_DOCTYPE, { ...doc, is_builtin: 0 });
}
