/** The flow endpoints the canvas, the runs view and the approvals inbox use: the spec's (huf.ai.flow_api)
 * and Huf's (huf.api.flows). */

import { call } from "../lib/api";
import type { Dict, FlowDefinition, Problem } from "./definition";
import type { RequestField } from "./userInput";

const M = "huf.ai.flow_api";
const FLOWS = "huf.api.flows";

/** A JSON value as the endpoints take it (objects, lists and text as they are; anything else as JSON text). */
function asArgument(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  return typeof value === "object" || typeof value === "string" ? value : JSON.stringify(value);
}

export const FLOW_STATUSES = ["Draft", "Active", "Archived"] as const;
export const LIVE_RUN_STATUSES = ["Queued", "Running"];
export const WAITING_RUN_STATUSES = ["Waiting Approval", "Waiting User"];
export const FLOW_RUN_STATUSES = ["Queued", "Running", "Waiting Approval", "Waiting User", "Success", "Failed", "Cancelled"];

export interface FlowSummary {
  flow_id: string;
  flow_name: string;
  description: string | null;
  status: string;
  category: string | null;
  version: number;
  is_system: number;
  updated_at: string | null;
  modified: string;
}

export interface FlowRecord extends Omit<FlowSummary, "modified"> {
  definition: FlowDefinition;
  schema_version: number;
  run_as: string | null;
  updated_by: string | null;
  /** Only in the answer that created the flow: shown once, never again. */
  webhook_key?: string;
}

export interface NodeState {
  status: string;
  output?: unknown;
  error?: string;
  outcome?: string;
  started_at?: string;
  finished_at?: string;
  duration_ms?: number;
}

export interface AgentRunRow {
  name: string;
  flow_node_id: string | null;
  agent: string;
  run_kind: string | null;
  status: string;
  start_time: string | null;
  end_time: string | null;
  total_tokens: number | null;
  total_cost: number | null;
  error_message: string | null;
}

export interface FlowRunView {
  flow_run_id: string;
  flow_id: string;
  flow_version: number;
  mode: string;
  status: string;
  trigger_type: string;
  user: string | null;
  current_node_id: string | null;
  hop_count: number;
  max_hops: number;
  context: {
    payload?: unknown;
    vars?: Dict;
    nodes?: Record<string, NodeState>;
    result?: unknown;
    /** The engine's log of hops: when each step ran and how long it took. */
    steps?: Array<{ node_id: string; status: string; started_at?: string; finished_at?: string; duration_ms?: number }>;
    [key: string]: unknown;
  };
  result: unknown;
  waiting: Dict | null;
  last_error: string | null;
  errors: Record<string, string>;
  started_at: string | null;
  completed_at: string | null;
  cancelled_by?: string | null;
  cancelled_at?: string | null;
  /** Whether the caller may cancel the run now (it has not ended, and they are its user, who started it or a manager). */
  can_cancel?: boolean;
  agent_runs: AgentRunRow[];
}

export interface FlowRunRow {
  name: string;
  flow_id: string;
  flow_version: number;
  mode: string;
  status: string;
  trigger_type: string;
  user: string | null;
  current_node_id: string | null;
  hop_count: number;
  last_error: string | null;
  started_at: string | null;
  completed_at: string | null;
  creation: string;
  flow_name?: string | null;
  total_cost?: number;
  total_tokens?: number;
}

/** The filters of the list of all flow runs (dates as YYYY-MM-DD, both included). */
export interface FlowRunFilters {
  flow_id?: string;
  status?: string;
  user?: string;
  from_date?: string;
  to_date?: string;
  start?: number;
  limit?: number;
}

/** One LLM call or tool call inside an Agent Run, as the timeline shows it. */
export interface TimelineSpan {
  kind: "llm" | "tool";
  name: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}

export interface TimelineAgentRun {
  name: string;
  agent: string;
  run_kind: string | null;
  status: string;
  start_time: string | null;
  end_time: string | null;
  duration_ms: number | null;
  total_tokens: number;
  total_cost: number;
  error_message: string | null;
  spans: TimelineSpan[];
}

export interface TimelineStep {
  node_id: string;
  label: string;
  type: string | null;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  /** Who resumed the step: the approver who decided it, or whoever answered its form. */
  by?: string;
  agent_runs: TimelineAgentRun[];
}

/** A flow run as a trace: huf.api.flows.get_flow_run_timeline. */
export interface FlowRunTimeline {
  flow_run_id: string;
  flow_id: string;
  flow_name: string | null;
  status: string;
  trigger_type: string;
  user: string | null;
  hop_count: number;
  current_node_id: string | null;
  last_error: string | null;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  cancelled_by: string | null;
  cancelled_at: string | null;
  can_cancel: boolean;
  total_cost: number;
  total_tokens: number;
  steps: TimelineStep[];
}

export interface PendingApproval {
  flow_run_id: string;
  flow_id: string;
  flow_name: string | null;
  node_id: string | null;
  message: string | null;
  since: string | null;
  timeout_at: string | null;
  user: string | null;
  payload: unknown;
  context: Dict;
}

/** A form a Wait for input step waits for, in the inbox of whom may answer it (huf.api.flows.list_pending_inputs). */
export interface PendingInput {
  flow_run_id: string;
  flow_id: string;
  flow_name: string | null;
  node_id: string | null;
  title: string | null;
  instructions: string | null;
  fields: RequestField[];
  assignees: { users: string[]; roles: string[] } | null;
  since: string | null;
  user: string | null;
  payload: unknown;
}

export interface SaveArgs {
  flow_id: string;
  definition: FlowDefinition;
  flow_name?: string;
  status?: string;
  description?: string;
  category?: string;
}

/** The query keys of the flow endpoints' answers (invalidating a shorter key refreshes every key under it). */
export const flowKeys = {
  flows: ["flows"],
  list: (term: string, category: string, status: string) => ["flows", term, category, status],
  flow: (flowId: string | undefined) => ["flow", flowId],
  schedule: (flowId: string, version: unknown) => ["flow-schedule", flowId, version],
  run: (runId: string | null | undefined) => ["flow-run", runId],
  runs: (flowId: string | undefined) => ["flow-runs", flowId],
  allRuns: ["all-flow-runs"],
  allRunsPage: (filters: unknown, page: number) => ["all-flow-runs", filters, page],
  timeline: (runId: string | undefined) => ["flow-run-timeline", runId],
  nodeSchemas: ["flow-node-schemas"],
};

/** One setting of a node type's form (huf/ai/flows/nodes/schema.py `setting`). */
export interface NodeSetting {
  name: string;
  label: string;
  type: string;
  description: string;
  required?: boolean;
  default?: unknown;
  options?: unknown[];
  supports_variables?: boolean;
  /** The setting applies only while each named setting has one of these values. */
  depends_on?: Record<string, unknown[]>;
}

/** A node type as the server describes it (huf.ai.flow_api.get_node_schemas). */
export interface NodeSchema {
  label: string;
  icon: string;
  category: string;
  description: string;
  has_backend: boolean;
  config_schema: NodeSetting[];
}

export const flowApi = {
  nodeSchemas: () => call<Record<string, NodeSchema>>(`${M}.get_node_schemas`, {}, "GET"),
  list: (args: { search?: string; category?: string; status?: string } = {}) =>
    call<FlowSummary[]>(`${FLOWS}.list_flows`, args, "GET"),
  get: (flowId: string) => call<FlowRecord>(`${M}.get_flow_definition`, { flow_id: flowId }, "GET"),
  /** A new Draft flow without steps; a taken id is refused (409). Its answer carries the webhook key, shown once. */
  create: (args: { flow_id: string; flow_name: string; category?: string }) => call<FlowRecord>(`${FLOWS}.create_flow`, args),
  save: ({ definition, ...rest }: SaveArgs) =>
    call<FlowRecord>(`${M}.save_flow_definition`, { ...rest, definition_json: JSON.stringify(definition) }),
  duplicate: (flowId: string, newFlowId?: string) =>
    call<FlowRecord>(`${FLOWS}.duplicate_flow`, { flow_id: flowId, ...(newFlowId ? { new_flow_id: newFlowId } : {}) }),
  remove: (flowId: string) => call<{ deleted: string }>(`${FLOWS}.delete_flow`, { flow_id: flowId }),
  exportFlow: (flowId: string) => call<Dict>(`${FLOWS}.export_flow`, { flow_id: flowId }, "GET"),
  importFlow: (data: Dict, flowName?: string) =>
    call<FlowRecord>(`${FLOWS}.import_flow`, { definition_json: JSON.stringify(data), ...(flowName ? { flow_name: flowName } : {}) }),
  validate: (definition: Dict) =>
    call<{ errors: Problem[] }>(`${FLOWS}.validate_flow_definition`, { definition_json: JSON.stringify(definition) }),
  checkExpression: (expression: string) =>
    call<{ ok: boolean; error: string | null }>(`${FLOWS}.check_flow_expression`, { expression }),
  resetWebhookKey: (flowId: string) => call<{ flow_id: string; webhook_key: string }>(`${FLOWS}.reset_flow_webhook_key`, { flow_id: flowId }),
  schedule: (flowId: string, count = 5) => call<{ flow_id: string; next_runs: string[] }>(`${M}.get_flow_schedule`, { flow_id: flowId, count }, "GET"),
  run: (flowId: string, payload: unknown, mode?: string) =>
    call<{ flow_run_id: string; status: string }>(`${M}.run_flow`, {
      flow_id: flowId,
      payload: asArgument(payload),
      ...(mode ? { mode } : {}),
    }),
  getRun: (flowRunId: string) => call<FlowRunView>(`${M}.get_flow_run`, { flow_run_id: flowRunId }, "GET"),
  listRuns: (flowId: string, limit = 20) => call<FlowRunRow[]>(`${M}.list_flow_runs`, { flow_id: flowId, limit }, "GET"),
  /** Runs of every flow the caller may see, newest first, filtered (empty filters are left out). */
  listAllRuns: (filters: FlowRunFilters) =>
    call<FlowRunRow[]>(`${M}.list_flow_runs`, Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== "" && v !== undefined)), "GET"),
  timeline: (flowRunId: string) => call<FlowRunTimeline>(`${FLOWS}.get_flow_run_timeline`, { flow_run_id: flowRunId }, "GET"),
  cancel: (flowRunId: string, reason?: string) =>
    call<{ flow_run_id: string; status: string }>(`${FLOWS}.cancel_flow_run`, { flow_run_id: flowRunId, ...(reason ? { reason } : {}) }),
  resume: (flowRunId: string, input: unknown) =>
    call<{ flow_run_id: string; status: string }>(`${M}.resume_flow_run`, { flow_run_id: flowRunId, input: asArgument(input) }),
  approve: (flowRunId: string, comment: string) =>
    call<{ status: string }>(`${M}.approve_flow_run`, { flow_run_id: flowRunId, comment }),
  reject: (flowRunId: string, comment: string) =>
    call<{ status: string }>(`${M}.reject_flow_run`, { flow_run_id: flowRunId, comment }),
};

/** The URL apps post to for a flow whose start step is a webhook trigger. */
export function webhookUrl(flowId: string, origin: string = typeof window !== "undefined" ? window.location.origin : ""): string {
  return `${origin}/api/method/huf.ai.flow_api.flow_webhook?flow_id=${encodeURIComponent(flowId)}`;
}

/** A flow id from a name: letters, digits, - and _ (the Flow Definition's rule), at most 140 characters. */
export function flowIdFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "")
    .slice(0, 140);
}

export const FLOW_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,139}$/;
