/** A chat turn whose run waits for an approver's decision on a tool call (docs/approvals.md), and how it goes on. */

import type { Item, Message, ToolCall } from "../components/messages";
import { call } from "./api";
import { isInFlight, isWaiting } from "./liveRuns";

/** The status a tool call shows while its run waits for a decision on it. */
export const WAITING_TOOL = "Waiting approval";

/** A run stopped before a call of `tool` until an approver decides (the stream's `approval_required`, or the run's status). */
export interface ApprovalWait {
  runId: string;
  /** The run's status: Waiting Approval; Queued or Started once decided (the run goes on in the background). */
  status: string;
  tool: string;
  approvalId?: string | null;
  message: string;
  /** The run waits for this browser to run a Client Side tool, not for an approver (../clientTools). */
  client?: boolean;
}

/** What `get_agent_run_status` answers (the keys the chat reads). */
export interface RunStatusAnswer {
  agent_run_id: string;
  status: string;
  waiting_approval?: boolean;
  /** The run waits for the browser of its user to answer a Client Side tool call. */
  waiting_client?: boolean;
  approval_id?: string | null;
  tool_name?: string;
  message?: string;
  error_message?: string | null;
}

export const runStatusKey = (run: string | null | undefined) => ["agent-run-status", run];

export const fetchRunStatus = (run: string): Promise<RunStatusAnswer> =>
  call<RunStatusAnswer>("huf.ai.agent_integration.get_agent_run_status", { agent_run_id: run }, "GET");

/** The status answer a stream that ended waiting stands for (seeds the chat's status query). */
export const statusOfWait = (wait: ApprovalWait): RunStatusAnswer => ({
  agent_run_id: wait.runId,
  status: wait.status,
  waiting_approval: isWaiting(wait.status),
  waiting_client: wait.client,
  approval_id: wait.approvalId ?? null,
  tool_name: wait.tool,
  message: wait.message,
});

/** The wait a run's status shows: it waits for a decision, or was decided and goes on; null once it ended. */
export function waitOf(answer: RunStatusAnswer | undefined): ApprovalWait | null {
  if (!answer || !(isWaiting(answer.status) || isInFlight(answer.status))) return null;
  return {
    runId: answer.agent_run_id,
    status: answer.status,
    tool: answer.tool_name ?? "",
    approvalId: answer.approval_id,
    message: answer.message ?? "",
    ...(answer.waiting_client ? { client: true } : {}),
  };
}

/** Whether a run of this status has ended (its answer or failure is stored). */
export const hasEnded = (status: string | null | undefined): boolean => Boolean(status) && !isWaiting(status) && !isInFlight(status);

const isAnswer = (m: Message) => m.role === "agent" && (m.kind === "Message" || m.kind === "Error" || !m.kind);

/**
 * The run of the conversation's last stored message when that run has no answer yet (it may wait for an
 * approval or still run in the background); null when the conversation ends with an answer.
 */
export function unansweredRun(messages: Message[]): string | null {
  const last = messages[messages.length - 1];
  return last && last.agent_run && !isAnswer(last) ? last.agent_run : null;
}

/** The first call of `tool` not run yet, marked as waiting for approval (the calls before it have run). */
export function markWaiting(tools: ToolCall[], tool: string): ToolCall[] {
  const index = tools.findIndex((t) => t.name === tool && t.status === "Running");
  return index < 0 ? tools : tools.map((t, i) => (i === index ? { ...t, status: WAITING_TOOL } : t));
}

/** History items with the waiting call (after the last user message) marked as waiting for approval. */
export function markWaitingItems(items: Item[], tool: string): Item[] {
  const from = items.map((item) => item.kind).lastIndexOf("user") + 1;
  const index = items.findIndex((item, i) => i >= from && item.kind === "tool" && item.call.name === tool && item.call.status === "Running");
  return items.map((item, i) => (i === index && item.kind === "tool" ? { ...item, call: { ...item.call, status: WAITING_TOOL } } : item));
}
