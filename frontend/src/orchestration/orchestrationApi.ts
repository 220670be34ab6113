/** The server calls of the orchestration panel: the orchestration a run created (huf.api.orchestration), and
 * Stop and Recreate plan (huf.ai.orchestration.orchestrator, the spec's endpoints). */
import { call } from "../lib/api";

const READ = "huf.api.orchestration";
const API = "huf.ai.orchestration.orchestrator";

export interface OrchestrationStep {
  step_index: number;
  status: string;
  instruction: string | null;
  output_ref: string | null;
}

export interface Orchestration {
  name: string;
  status: string;
  current_step: number | null;
  steps: OrchestrationStep[];
  parent_run: string | null;
  error_log: string | null;
}

export type OrchestrationAction = "stop_orchestration" | "recreate_orchestration_plan";

export const orchestrationKey = (run: string) => ["orchestration", run];

/** The orchestration the run `run` created (null when it made none). */
export const getOrchestration = (run: string) => call<Orchestration | null>(`${READ}.get_orchestration`, { parent_run: run }, "GET");

/** Stop the orchestration, or start its plan over. */
export const changeOrchestration = (action: OrchestrationAction, orchestration: string | undefined) =>
  call<Orchestration>(action === "stop_orchestration" ? `${API}.stop_orchestration` : `${API}.recreate_orchestration_plan`, { orch_name: orchestration });
