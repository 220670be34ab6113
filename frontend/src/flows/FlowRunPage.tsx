import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { CancelledBy, CancelRunForm } from "../components/CancelRunForm";
import { Badge, Card, cx, ErrorBanner, PageHeader, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { formatCost, formatDate, formatNumber } from "../lib/format";
import { useNow } from "../lib/useNow";
import { flowApi, flowKeys, type FlowRunTimeline } from "./flowApi";
import { isLive, pollInterval } from "./runState";
import { formatLatency, timelineRows, type TimelineRow } from "./timeline";

/** The timeline of flow run `runId`, read again while the run may change. */
export function useFlowRunTimeline(runId: string) {
  return useQuery({
    queryKey: flowKeys.timeline(runId),
    queryFn: () => flowApi.timeline(runId),
    enabled: Boolean(runId),
    refetchInterval: (query) => pollInterval(query.state.data?.status),
  });
}

const STATUS_WORD: Record<string, string> = { success: "Done", failure: "Failed", waiting: "Waiting", running: "Running" };

function barColor(row: TimelineRow): string {
  if (row.status === "failure" || row.status === "Failed") return "bg-red-500";
  if (row.kind === "llm") return "bg-emerald-500";
  if (row.kind === "tool") return "bg-amber-500";
  if (row.kind === "agent") return "bg-sky-500";
  return "bg-indigo-500";
}

function Row({ row }: { row: TimelineRow }) {
  const running = row.status === "running" || row.status === "Started" || row.status === "Queued";
  const status = STATUS_WORD[row.status] ?? row.status;
  return (
    <li data-testid="timeline-row" data-kind={row.kind} data-status={row.status} className="grid gap-1 py-1.5 sm:grid-cols-[minmax(0,18rem)_1fr] sm:items-center sm:gap-3">
      <div className={cx("flex min-w-0 items-baseline justify-between gap-2 text-sm", row.depth === 1 && "pl-4", row.depth === 2 && "pl-8")}>
        <span className={cx("min-w-0 truncate", row.kind === "step" && "font-medium")}>
          {row.kind === "agent" && row.agentRun ? (
            <Link className="text-indigo-700 hover:underline dark:text-indigo-300" to={`/executions/${encodeURIComponent(row.agentRun)}`}>
              {row.label}
            </Link>
          ) : (
            row.label
          )}
          {row.kind === "step" && row.detail && <span className="ml-1 text-xs font-normal text-slate-500 dark:text-slate-400">{row.detail}</span>}
        </span>
        <span className="shrink-0 text-xs text-slate-600 dark:text-slate-300">
          <span data-testid="row-latency">{formatLatency(row.durationMs)}</span>
          {status !== "Done" && status !== "Success" && <span className="ml-1">· {status}</span>}
        </span>
      </div>
      <div className="relative h-3 rounded bg-slate-100 dark:bg-slate-800" aria-hidden="true">
        <div
          data-testid="timeline-bar"
          className={cx("absolute inset-y-0 rounded", barColor(row), running && "animate-pulse")}
          style={{ left: `${row.offset}%`, width: `${row.width}%` }}
        />
      </div>
    </li>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="break-words font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Timeline({ run }: { run: FlowRunTimeline }) {
  const live = isLive(run.status);
  const now = useNow(live);
  const rows = timelineRows(run, now);
  return (
    <Card className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">Timeline</h2>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          <span className="mr-3"><span className="mr-1 inline-block h-2 w-3 rounded bg-indigo-500" aria-hidden="true" />Step</span>
          <span className="mr-3"><span className="mr-1 inline-block h-2 w-3 rounded bg-sky-500" aria-hidden="true" />Agent run</span>
          <span className="mr-3"><span className="mr-1 inline-block h-2 w-3 rounded bg-emerald-500" aria-hidden="true" />LLM call</span>
          <span><span className="mr-1 inline-block h-2 w-3 rounded bg-amber-500" aria-hidden="true" />Tool call</span>
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No step has run yet.</p>
      ) : (
        <ol aria-label="Steps, agent runs, LLM and tool calls" className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="timeline">
          {rows.map((row) => (
            <Row key={row.key} row={row} />
          ))}
        </ol>
      )}
      <p className="text-xs text-slate-600 dark:text-slate-300">
        An LLM call is timed from the run's previous record to its stored answer; a tool call from its call to its stored result.
      </p>
    </Card>
  );
}

/** One flow run: its status, cost and who cancelled it, Cancel while it may be, and its timeline. */
export default function FlowRunPage() {
  const { runId = "" } = useParams();
  const queryClient = useQueryClient();
  const run = useFlowRunTimeline(runId);
  if (run.isLoading) return <Spinner label="Loading the run…" />;
  if (run.error || !run.data) return <ErrorBanner title="This flow run could not be opened" message={errorMessage(run.error)} />;
  const r = run.data;
  const cancel = async (reason: string) => {
    await flowApi.cancel(r.flow_run_id, reason || undefined);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: flowKeys.timeline(r.flow_run_id) }),
      queryClient.invalidateQueries({ queryKey: flowKeys.run(r.flow_run_id) }),
      queryClient.invalidateQueries({ queryKey: flowKeys.allRuns }),
    ]);
  };
  return (
    <div className="max-w-5xl space-y-4">
      <PageHeader
        title={`Run of ${r.flow_name || r.flow_id}`}
        description={`${r.flow_run_id} · ${formatDate(r.started_at) || "not started yet"}`}
        actions={
          <>
            {r.can_cancel && <CancelRunForm what="flow run" onCancel={cancel} />}
            <Link to={`/flows/${encodeURIComponent(r.flow_id)}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
              Open the flow
            </Link>
            <Link to="/flow-runs" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
              All flow runs
            </Link>
          </>
        }
      />
      <Card className="space-y-3">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4 lg:grid-cols-7">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Status</dt>
            <dd aria-live="polite" data-testid="run-status">
              <Badge>{r.status}</Badge>
            </dd>
          </div>
          <Stat label="Cost" value={formatCost(r.total_cost)} testId="run-cost" />
          <Stat label="Duration" value={formatLatency(r.duration_ms)} testId="run-duration" />
          <Stat label="Steps run" value={String(r.hop_count)} />
          <Stat label="Tokens" value={formatNumber(r.total_tokens)} />
          <Stat label="Acts as" value={r.user ?? "—"} />
          <Stat label="Trigger" value={r.trigger_type} />
        </dl>
        <CancelledBy by={r.cancelled_by} at={r.cancelled_at} />
        {r.status === "Cancelled"
          ? r.last_error && <p className="text-sm text-slate-600 dark:text-slate-300">Reason: {r.last_error}</p>
          : r.last_error && <ErrorBanner title="The run failed" message={r.last_error} />}
      </Card>
      <Timeline run={r} />
    </div>
  );
}
