/** The server calls of the Triggers page (huf.api.triggers). */
import { call } from "../lib/api";

const API = "huf.api.triggers";

export interface TriggerSummary {
  name: string;
  trigger_name: string;
  trigger_type: string;
  disabled: 0 | 1 | boolean;
  disabled_reason: string | null;
  run_as: string | null;
  reference_doctype: string | null;
  doc_event: string | null;
  scheduled_interval: string | null;
  interval_count: number | null;
  cron_expression: string | null;
  run_at: string | null;
  app_name: string | null;
  event_name: string | null;
  webhook_slug: string | null;
  webhook_url: string | null;
  last_execution: string | null;
  next_execution: string | null;
  failures: number | null;
  backoff_until: string | null;
  last_error: string | null;
  last_run: string | null;
  last_run_status: string | null;
}

export interface RunNowResult {
  agent_run: string;
  status: string;
  conversation: string | null;
  user: string;
}

export interface WebhookKey {
  key: string;
  webhook_url: string;
}

export const triggersKey = (agent: string) => ["triggers", agent];

export function listTriggers(agent: string): Promise<TriggerSummary[]> {
  return call<TriggerSummary[]>(`${API}.list_agent_triggers`, { agent }, "GET");
}

export function runTriggerNow(trigger: string): Promise<RunNowResult> {
  return call<RunNowResult>(`${API}.run_trigger_now`, { trigger });
}

export function revealWebhookKey(trigger: string): Promise<WebhookKey> {
  return call<WebhookKey>(`${API}.reveal_webhook_key`, { trigger });
}

export function regenerateWebhookKey(trigger: string): Promise<WebhookKey> {
  return call<WebhookKey>(`${API}.regenerate_webhook_key`, { trigger });
}
