/** A flow run's timeline laid out as trace viewers show it: one row per step, Agent Run, LLM call and tool
 * call, each a bar on one time axis (the run's start to its end, or to now while it goes on). */

import { serverTime } from "../lib/serverClock";
import type { FlowRunTimeline } from "./flowApi";

export type RowKind = "step" | "agent" | "llm" | "tool";

export interface TimelineRow {
  key: string;
  kind: RowKind;
  /** 0 for steps, 1 for their Agent Runs, 2 for LLM and tool calls. */
  depth: number;
  label: string;
  detail: string;
  status: string;
  /** Where the bar starts and how wide it is, in % of the axis (a bar is at least 0.5 % wide). */
  offset: number;
  width: number;
  durationMs: number | null;
  /** The Agent Run the row belongs to (links to its page). */
  agentRun?: string;
}

/** "850 ms", "1.25 s", "2 min 05 s"; "—" when unknown. */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(2)} s`;
  return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
}

interface Timed {
  started_at?: string | null;
  finished_at?: string | null;
  start_time?: string | null;
  end_time?: string | null;
}

const startOf = (t: Timed) => serverTime(t.started_at ?? t.start_time);
const endOf = (t: Timed) => serverTime(t.finished_at ?? t.end_time);

/** The axis: from the run's (or its first record's) start to its end, its last record's end, or `now`. */
export function axisOf(run: FlowRunTimeline, now: number): { start: number; end: number } {
  const times: number[] = [];
  const add = (t: Timed) => {
    for (const value of [startOf(t), endOf(t)]) if (value !== null) times.push(value);
  };
  add({ started_at: run.started_at, finished_at: run.completed_at });
  for (const step of run.steps) {
    add(step);
    for (const agentRun of step.agent_runs) {
      add(agentRun);
      agentRun.spans.forEach(add);
    }
  }
  if (times.length === 0) return { start: now, end: now + 1 };
  const start = Math.min(...times);
  const end = run.completed_at ? Math.max(...times) : Math.max(now, ...times);
  return { start, end: end > start ? end : start + 1 };
}

/** The rows of the timeline, in order, with their bars placed on the axis. */
export function timelineRows(run: FlowRunTimeline, now: number): TimelineRow[] {
  const axis = axisOf(run, now);
  const total = axis.end - axis.start;
  const place = (t: Timed) => {
    const start = startOf(t) ?? axis.start;
    const end = endOf(t) ?? (run.completed_at ? start : now);
    const offset = Math.min(Math.max(((start - axis.start) / total) * 100, 0), 99.5);
    const width = Math.min(Math.max(((end - start) / total) * 100, 0.5), 100 - offset);
    return { offset, width };
  };
  const rows: TimelineRow[] = [];
  run.steps.forEach((step, i) => {
    rows.push({
      key: `step-${i}`,
      kind: "step",
      depth: 0,
      label: step.label,
      detail: [step.type ?? "", step.by ? `by ${step.by}` : ""].filter(Boolean).join(" · "),
      status: step.status,
      durationMs: step.duration_ms,
      ...place(step),
    });
    for (const agentRun of step.agent_runs) {
      rows.push({
        key: `run-${agentRun.name}`,
        kind: "agent",
        depth: 1,
        label: `${agentRun.run_kind === "orchestrator" ? "Routing decision" : "Agent run"} of ${agentRun.agent}`,
        detail: agentRun.name,
        status: agentRun.status,
        durationMs: agentRun.duration_ms,
        agentRun: agentRun.name,
        ...place(agentRun),
      });
      agentRun.spans.forEach((span, j) => {
        rows.push({
          key: `span-${agentRun.name}-${j}`,
          kind: span.kind,
          depth: 2,
          label: span.kind === "llm" ? "LLM call" : `Tool ${span.name}`,
          detail: span.kind,
          status: span.status,
          durationMs: span.duration_ms,
          agentRun: agentRun.name,
          ...place(span),
        });
      });
    }
  });
  return rows;
}
