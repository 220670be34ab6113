import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { can } from "../lib/boot";
import { formatDate } from "../lib/format";
import type { PendingApproval, PendingInput } from "../flows/flowApi";
import { showValue } from "../flows/runState";

/** What the approval and input cards of a waiting flow run both show of it. */
type WaitingRun = Pick<PendingApproval & PendingInput, "flow_run_id" | "flow_id" | "flow_name" | "node_id" | "user" | "since" | "payload">;

/** The flow's name, the run, its step, who started it and since when (then `children`), and a link to the flow. */
export function WaitingRunHeader({ item, children }: { item: WaitingRun; children?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-2">
      <div>
        <h2 className="font-semibold">{item.flow_name || item.flow_id}</h2>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Run {item.flow_run_id}
          {item.node_id ? ` · step ${item.node_id}` : ""}
          {item.user ? ` · started by ${item.user}` : ""}
          {item.since ? ` · waiting since ${formatDate(item.since)}` : ""}
        </p>
        {children}
      </div>
      {can("Flow Definition") && (
        <Link className="text-sm text-indigo-600 hover:underline dark:text-indigo-400" to={`/flows/${encodeURIComponent(item.flow_id)}`}>
          Open the flow
        </Link>
      )}
    </header>
  );
}

/** The run's payload, folded. */
export function WaitingRunPayload({ item, testId }: { item: WaitingRun; testId?: string }) {
  return (
    <details>
      <summary className="cursor-pointer text-sm text-slate-600 dark:text-slate-300">What the run received</summary>
      <pre className="mt-2 max-h-64 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100" data-testid={testId}>
        {showValue(item.payload ?? {})}
      </pre>
    </details>
  );
}
