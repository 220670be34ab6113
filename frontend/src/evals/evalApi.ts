/** The server calls of the Evals page (huf.api.evals). */
import { call } from "../lib/api";

const API = "huf.api.evals";

export interface EvalCase {
  name: string;
  title: string;
  enabled: 0 | 1;
  prompt: string;
  checks: { kind: string; value: string | null; tool: string | null; judge_agent: string | null }[];
}

export interface EvalRun {
  name: string;
  agent: string;
  status: "Queued" | "Running" | "Passed" | "Failed" | "Error";
  prompt_version: string | null;
  model: string | null;
  requested_by: string | null;
  total_cases: number;
  done_cases: number;
  passed_cases: number;
  failed_cases: number;
  total_cost: number;
  total_latency: number;
  started_at: string | null;
  finished_at: string | null;
  creation: string;
  error: string | null;
}

export interface CheckOutcome {
  kind: string;
  passed: boolean;
  reason: string;
  score?: number;
  reasoning?: string;
}

export interface CaseSide {
  status: "Passed" | "Failed" | "Error";
  cost: number;
  latency: number;
  turns: number;
  answer: string | null;
  check_results: CheckOutcome[];
}

export interface ComparedCase {
  eval_case: string;
  case_title: string;
  a: CaseSide | null;
  b: CaseSide | null;
  change: "same" | "fixed" | "broken" | "changed" | "only in a" | "only in b";
}

export interface Comparison {
  a: EvalRun;
  b: EvalRun;
  cases: ComparedCase[];
}

export const evalRunsKey = (agent: string) => ["eval-runs", agent];

export const listCases = (agent: string) => call<EvalCase[]>(`${API}.list_cases`, { agent }, "GET");
export const listEvalRuns = (agent: string) => call<EvalRun[]>(`${API}.list_eval_runs`, { agent }, "GET");
export const startEvalRun = (agent: string, promptVersion?: string, model?: string) =>
  call<EvalRun>(`${API}.start_eval_run`, { agent, prompt_version: promptVersion || undefined, model: model || undefined });
export const compareEvalRuns = (runA: string, runB: string) => call<Comparison>(`${API}.compare_eval_runs`, { run_a: runA, run_b: runB }, "GET");
