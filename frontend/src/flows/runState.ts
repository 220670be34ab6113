/** What a flow run says about each step, for the live run view on the canvas. */

import type { AgentRunRow, FlowRunView, NodeState } from "./flowApi";
import { LIVE_RUN_STATUSES, WAITING_RUN_STATUSES } from "./flowApi";

/** How a step looks in the run view. */
export type StepRunStatus = "current" | "waiting" | "success" | "failure" | "idle";

export interface StepRun {
  status: StepRunStatus;
  entry?: NodeState;
  error?: string;
  agentRuns: AgentRunRow[];
  /** Seconds the step took, when the run says (its Agent Runs' times, or the step's own). */
  seconds?: number;
}

/** Whether the run may still change by itself (the view polls it). */
export const isLive = (status: string | undefined): boolean => !!status && LIVE_RUN_STATUSES.includes(status);
export const isWaiting = (status: string | undefined): boolean => !!status && WAITING_RUN_STATUSES.includes(status);
export const isFinished = (status: string | undefined): boolean => status === "Success" || status === "Failed" || status === "Cancelled";

/** How often a run is read again while it may change: every second while it runs, less while it waits. */
export function pollInterval(status: string | undefined): number | false {
  if (isLive(status)) return 1000;
  if (isWaiting(status)) return 3000;
  return false;
}

function toTime(value: unknown): number | undefined {
  if (typeof value !== "string" || !value) return undefined;
  const time = new Date(value.replace(" ", "T")).getTime();
  return Number.isNaN(time) ? undefined : time;
}

function secondsOf(entry: NodeState | undefined, agentRuns: AgentRunRow[]): number | undefined {
  if (entry && typeof entry.duration_ms === "number") return entry.duration_ms / 1000;
  const start = toTime(entry?.started_at);
  const end = toTime(entry?.finished_at);
  if (start !== undefined && end !== undefined) return (end - start) / 1000;
  let total = 0;
  let known = false;
  for (const run of agentRuns) {
    const a = toTime(run.start_time);
    const b = toTime(run.end_time);
    if (a !== undefined && b !== undefined) {
      total += (b - a) / 1000;
      known = true;
    }
  }
  return known ? total : undefined;
}

/** The state of step `nodeId` in `run`. */
export function stepRun(run: FlowRunView | undefined, nodeId: string): StepRun {
  if (!run) return { status: "idle", agentRuns: [] };
  const entry = run.context?.nodes?.[nodeId];
  const agentRuns = (run.agent_runs ?? []).filter((r) => r.flow_node_id === nodeId);
  const error = run.errors?.[nodeId] ?? entry?.error;
  // the engine's step log times each hop; the newest hop of this step tells how long it took
  const logged = (run.context?.steps ?? []).filter((s) => s?.node_id === nodeId).at(-1);
  const seconds = typeof logged?.duration_ms === "number" ? logged.duration_ms / 1000 : secondsOf(entry, agentRuns);
  const base = { entry, error, agentRuns, seconds };
  if (run.current_node_id === nodeId && !isFinished(run.status)) {
    return { ...base, status: isWaiting(run.status) ? "waiting" : "current" };
  }
  if (!entry) return { ...base, status: "idle" };
  if (entry.status === "failure") return { ...base, status: "failure" };
  if (entry.status === "waiting") return { ...base, status: "waiting" };
  return { ...base, status: "success" };
}

export const STEP_STATUS_LABEL: Record<StepRunStatus, string> = {
  current: "Running",
  waiting: "Waiting",
  success: "Done",
  failure: "Failed",
  idle: "Not run",
};

/** A value as readable text: strings as they are, everything else as indented JSON. */
export function showValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
