/** The server calls of the Executions pages: an Agent Run's record and its cancellation (huf.api.runs). */
import { call } from "../lib/api";

/** The Agent Run record (the key RecordEditor and getDoc reads share). */
export const agentRunKey = (run: string) => ["doc", "Agent Run", run];

/** Cancel a run in flight or waiting for an approval, for good (with the reason given, if any). */
export const cancelAgentRun = (run: string, reason?: string) => call<unknown>("huf.api.runs.cancel_agent_run", { run_id: run, ...(reason ? { reason } : {}) });
