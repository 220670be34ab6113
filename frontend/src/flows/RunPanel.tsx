import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { CancelledBy, CancelRunForm } from "../components/CancelRunForm";
import { Badge, Button, cx, ErrorBanner, Select, Spinner, Textarea } from "../components/ui";
import { errorMessage } from "../lib/api";
import { formatDate } from "../lib/format";
import { flowApi, flowKeys, type FlowRunView } from "./flowApi";
import { InputRequestForm } from "./InputRequestForm";
import { nodeTypeInfo } from "./nodeTypes";
import { PENDING_INPUTS_KEY } from "./pendingApprovals";
import { isLive, isWaiting, pollInterval, showValue, STEP_STATUS_LABEL, stepRun } from "./runState";
import type { FlowNode } from "./serialize";
import { requestOf } from "./userInput";

/** The run being watched, read again while it is live (the dashboard has no socket client: it polls). */
export function useFlowRun(runId: string | null) {
  return useQuery({
    queryKey: flowKeys.run(runId),
    queryFn: () => flowApi.getRun(runId ?? ""),
    enabled: Boolean(runId),
    refetchInterval: (query) => pollInterval(query.state.data?.status),
  });
}

function parsePayload(text: string): { value?: unknown; error?: string } {
  if (!text.trim()) return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: `The payload is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function StepDetails({ run, node }: { run: FlowRunView; node: FlowNode }) {
  const state = stepRun(run, node.id);
  const label = typeof node.data.label === "string" && node.data.label ? node.data.label : node.id;
  return (
    <section aria-label="Step result" className="space-y-2 rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700" data-testid="step-run-details">
      <div className="flex items-center justify-between gap-2">
        <p className="font-medium">
          {label} <span className="text-xs text-slate-500">({nodeTypeInfo(node.type)?.label ?? node.type})</span>
        </p>
        <Badge color={state.status === "failure" ? "red" : state.status === "success" ? "green" : state.status === "idle" ? "gray" : "yellow"}>{STEP_STATUS_LABEL[state.status]}</Badge>
      </div>
      {state.seconds !== undefined && <p className="text-xs text-slate-500">Took {state.seconds.toFixed(2)} s</p>}
      {state.entry?.outcome && <p className="text-xs">Decision: {state.entry.outcome}</p>}
      {state.error && <ErrorBanner message={state.error} />}
      {state.entry && state.entry.output !== undefined && state.entry.output !== null && (
        <div>
          <p className="text-xs font-medium text-slate-500">Output</p>
          <pre className="max-h-64 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100" data-testid="step-output">
            {showValue(state.entry.output)}
          </pre>
        </div>
      )}
      {state.agentRuns.length > 0 && (
        <ul className="space-y-1 text-xs" aria-label="Agent runs of this step">
          {state.agentRuns.map((r) => (
            <li key={r.name}>
              <Link className="text-indigo-600 hover:underline dark:text-indigo-400" to={`/executions/${encodeURIComponent(r.name)}`}>
                {r.run_kind === "orchestrator" ? "Routing decision" : "Agent run"} of {r.agent}
              </Link>{" "}
              <Badge>{r.status}</Badge>
            </li>
          ))}
        </ul>
      )}
      {state.status === "idle" && <p className="text-xs text-slate-500">This step has not run in this run.</p>}
    </section>
  );
}

/** The form the run waits for (a Wait for input step), answered here by an assignee or a manager. */
function WaitingForInput({ run }: { run: FlowRunView }) {
  const queryClient = useQueryClient();
  const request = requestOf(run.flow_run_id, run.waiting);
  const assignees = run.waiting?.assignees as { users?: string[]; roles?: string[] } | undefined;
  const who = [...(assignees?.users ?? []), ...(assignees?.roles ?? [])].join(", ");
  if (!request) return <p className="rounded-md bg-amber-50 p-2 text-xs text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">Waiting for input.</p>;
  return (
    <section aria-label="Input the run waits for" className="space-y-2 rounded-md border border-amber-300 bg-amber-50/50 p-2 dark:border-amber-800 dark:bg-amber-950/20">
      {who && <p className="text-xs text-slate-600 dark:text-slate-300">Asked of {who}.</p>}
      <InputRequestForm
        request={request}
        onAnswered={() => {
          void queryClient.invalidateQueries({ queryKey: flowKeys.run(run.flow_run_id) });
          void queryClient.invalidateQueries({ queryKey: flowKeys.runs(run.flow_id) });
          void queryClient.invalidateQueries({ queryKey: PENDING_INPUTS_KEY });
        }}
      />
    </section>
  );
}

function RunSummary({ run }: { run: FlowRunView }) {
  const queryClient = useQueryClient();
  const cancel = async (reason: string) => {
    await flowApi.cancel(run.flow_run_id, reason || undefined);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: flowKeys.run(run.flow_run_id) }),
      queryClient.invalidateQueries({ queryKey: flowKeys.runs(run.flow_id) }),
    ]);
  };
  return (
    <section aria-label="Run status" className="space-y-2 text-sm" data-testid="run-summary">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Run {run.flow_run_id}</span>
        <span data-testid="run-status">
          <Badge color={run.status === "Waiting Approval" || run.status === "Waiting User" ? "yellow" : undefined}>{run.status}</Badge>
        </span>
        <Link className="text-xs text-indigo-700 hover:underline dark:text-indigo-300" to={`/flow-runs/${encodeURIComponent(run.flow_run_id)}`}>
          Timeline
        </Link>
      </div>
      {run.can_cancel && <CancelRunForm what="flow run" onCancel={cancel} />}
      <CancelledBy by={run.cancelled_by} at={run.cancelled_at} />
      <dl className="grid grid-cols-2 gap-x-2 gap-y-1 text-xs">
        <dt className="text-slate-500">Steps run</dt>
        <dd data-testid="run-hops">
          {run.hop_count} of at most {run.max_hops}
        </dd>
        <dt className="text-slate-500">Current step</dt>
        <dd>{run.current_node_id ?? "—"}</dd>
        <dt className="text-slate-500">Started</dt>
        <dd>{formatDate(run.started_at) || "—"}</dd>
        <dt className="text-slate-500">Finished</dt>
        <dd>{formatDate(run.completed_at) || "—"}</dd>
        <dt className="text-slate-500">Version</dt>
        <dd>{run.flow_version}</dd>
      </dl>
      {run.status === "Waiting Approval" && (
        <p className="rounded-md bg-amber-50 p-2 text-xs text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          Waiting for an approval{typeof run.waiting?.message === "string" ? `: ${run.waiting.message}` : "."}{" "}
          <Link className="font-medium underline" to="/approvals">
            Open approvals
          </Link>
        </p>
      )}
      {run.status === "Waiting User" && <WaitingForInput run={run} />}
      {run.status === "Cancelled"
        ? run.last_error && <p className="text-xs text-slate-600 dark:text-slate-300">Reason: {run.last_error}</p>
        : run.last_error && <ErrorBanner title="The run failed" message={run.last_error} />}
      {run.status === "Success" && run.result !== undefined && run.result !== null && (
        <div>
          <p className="text-xs font-medium text-slate-500">Result</p>
          <pre className="max-h-40 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100" data-testid="run-result">
            {showValue(run.result)}
          </pre>
        </div>
      )}
    </section>
  );
}

/** Run the saved flow with a payload, watch the run, read each step's result, browse earlier runs. */
export function RunPanel({
  flowId,
  canRun,
  blockedReason,
  runId,
  onWatch,
  selectedNode,
}: {
  flowId: string;
  canRun: boolean;
  blockedReason?: string;
  runId: string | null;
  onWatch: (runId: string | null) => void;
  selectedNode?: FlowNode;
}) {
  const queryClient = useQueryClient();
  const [payload, setPayload] = useState("{}");
  const [mode, setMode] = useState("");
  const parsed = parsePayload(payload);
  const run = useFlowRun(runId);
  const history = useQuery({
    queryKey: flowKeys.runs(flowId),
    queryFn: () => flowApi.listRuns(flowId),
    refetchInterval: run.data && (isLive(run.data.status) || isWaiting(run.data.status)) ? 5000 : false,
  });
  // a run that changed status changes the list of runs too
  const status = run.data?.status;
  useEffect(() => {
    if (status) void queryClient.invalidateQueries({ queryKey: flowKeys.runs(flowId) });
  }, [status, flowId, queryClient]);
  const start = useMutation({
    mutationFn: () => flowApi.run(flowId, parsed.value, mode || undefined),
    onSuccess: (answer) => {
      onWatch(answer.flow_run_id);
      void queryClient.invalidateQueries({ queryKey: flowKeys.runs(flowId) });
    },
  });

  return (
    <div className="space-y-4">
      <section aria-label="Run the flow" className="space-y-2">
        <label htmlFor="run-payload" className="block text-sm font-medium">
          Payload (JSON)
        </label>
        <Textarea id="run-payload" rows={4} className="font-mono text-xs" value={payload} onChange={(e) => setPayload(e.target.value)} invalid={Boolean(parsed.error)} spellCheck={false} />
        {parsed.error && <p className="text-xs text-red-600 dark:text-red-400">{parsed.error}</p>}
        <div className="flex items-center gap-2">
          <Select aria-label="Run mode" value={mode} onChange={(e) => setMode(e.target.value)} className="w-auto">
            <option value="">Flow's mode</option>
            <option value="Normal">Normal</option>
            <option value="Agentic">Agentic</option>
          </Select>
          <Button onClick={() => start.mutate()} disabled={!canRun || Boolean(parsed.error) || start.isPending}>
            {start.isPending ? "Starting…" : "Run"}
          </Button>
        </div>
        {blockedReason && <p className="text-xs text-slate-500 dark:text-slate-400">{blockedReason}</p>}
        {start.error && <ErrorBanner message={errorMessage(start.error)} />}
      </section>

      {runId && (
        <div className="space-y-3 border-t border-slate-200 pt-3 dark:border-slate-800">
          {run.isLoading ? <Spinner label="Loading the run…" /> : run.error ? <ErrorBanner message={errorMessage(run.error)} /> : run.data ? <RunSummary run={run.data} /> : null}
          {run.data && selectedNode && <StepDetails run={run.data} node={selectedNode} />}
          {run.data && !selectedNode && <p className="text-xs text-slate-500">Select a step to see its result.</p>}
          <Button variant="ghost" onClick={() => onWatch(null)}>
            Stop watching
          </Button>
        </div>
      )}

      <section aria-label="Earlier runs" className="space-y-2 border-t border-slate-200 pt-3 dark:border-slate-800">
        <div className="flex items-baseline justify-between gap-2">
          <h3 className="text-sm font-semibold">Runs</h3>
          <Link className="text-xs text-indigo-700 hover:underline dark:text-indigo-300" to={`/flow-runs?flow=${encodeURIComponent(flowId)}`}>
            All runs of this flow
          </Link>
        </div>
        {history.isLoading ? (
          <Spinner />
        ) : history.error ? (
          <ErrorBanner message={errorMessage(history.error)} />
        ) : (history.data ?? []).length === 0 ? (
          <p className="text-xs text-slate-500">No runs yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-xs dark:divide-slate-800" data-testid="run-history">
            {(history.data ?? []).map((r) => (
              <li key={r.name}>
                <button type="button" onClick={() => onWatch(r.name)} className={cx("flex w-full items-center justify-between gap-2 px-1 py-1.5 text-left hover:bg-slate-50 dark:hover:bg-slate-800", r.name === runId && "bg-indigo-50 dark:bg-indigo-950")}>
                  <span>
                    <span className="block font-medium">{formatDate(r.creation)}</span>
                    <span className="text-slate-500">
                      {r.trigger_type} · v{r.flow_version} · {r.hop_count} steps
                    </span>
                  </span>
                  <Badge color={isWaiting(r.status) ? "yellow" : undefined}>{r.status}</Badge>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
