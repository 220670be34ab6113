import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { LinkSelect } from "../components/FormFields";
import { Badge, Button, EmptyState, ErrorBanner, Field, Input, PageHeader, Select, Spinner, Table } from "../components/ui";
import { errorMessage } from "../lib/api";
import { formatCost, formatDate } from "../lib/format";
import { serverTime } from "../lib/serverClock";
import { FLOW_RUN_STATUSES, flowApi, flowKeys, type FlowRunRow } from "./flowApi";
import { isLive, isWaiting } from "./runState";
import { formatLatency } from "./timeline";

export const FLOW_RUNS_PAGE = 25;

function duration(row: FlowRunRow): string {
  const start = serverTime(row.started_at);
  const end = serverTime(row.completed_at);
  return start !== null && end !== null ? formatLatency(end - start) : "—";
}

/** Every flow run the user may see, filtered by flow, status, who it acts as and start date, a page at a time. */
export default function FlowRuns() {
  const [params, setParams] = useSearchParams();
  const filters = {
    flow_id: params.get("flow") ?? "",
    status: params.get("status") ?? "",
    user: params.get("user") ?? "",
    from_date: params.get("from") ?? "",
    to_date: params.get("to") ?? "",
  };
  const page = Math.max(Number(params.get("page") ?? "1") || 1, 1);
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    setParams(next, { replace: true });
  };
  const runs = useQuery({
    queryKey: flowKeys.allRunsPage(filters, page),
    // one row more than a page tells whether there is a next page
    queryFn: () => flowApi.listAllRuns({ ...filters, start: (page - 1) * FLOW_RUNS_PAGE, limit: FLOW_RUNS_PAGE + 1 }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => ((query.state.data ?? []).some((r) => isLive(r.status)) ? 2000 : (query.state.data ?? []).some((r) => isWaiting(r.status)) ? 10000 : false),
  });
  const rows = (runs.data ?? []).slice(0, FLOW_RUNS_PAGE);
  const hasNext = (runs.data ?? []).length > FLOW_RUNS_PAGE;
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div>
      <PageHeader
        title="Flow runs"
        description="Every run of your flows: open one for its timeline of steps, LLM calls and tool calls."
        actions={
          <Link to="/flows" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
            All flows
          </Link>
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Field label="Flow" htmlFor="flow-runs-flow">
          <LinkSelect id="flow-runs-flow" doctype="Flow Definition" value={filters.flow_id} onChange={(v) => setParam("flow", v)} placeholder="All flows" />
        </Field>
        <Field label="Status" htmlFor="flow-runs-status">
          <Select id="flow-runs-status" value={filters.status} onChange={(e) => setParam("status", e.target.value)}>
            <option value="">All statuses</option>
            {FLOW_RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Started by" htmlFor="flow-runs-user">
          <Input id="flow-runs-user" type="email" placeholder="Any user" value={filters.user} onChange={(e) => setParam("user", e.target.value.trim())} />
        </Field>
        <Field label="From" htmlFor="flow-runs-from">
          <Input id="flow-runs-from" type="date" value={filters.from_date} onChange={(e) => setParam("from", e.target.value)} />
        </Field>
        <Field label="To" htmlFor="flow-runs-to">
          <Input id="flow-runs-to" type="date" value={filters.to_date} onChange={(e) => setParam("to", e.target.value)} />
        </Field>
      </div>
      {runs.error && <ErrorBanner message={errorMessage(runs.error)} />}
      {runs.isLoading ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState title="No flow runs found" description={filtered ? "Try other filters." : "Runs appear here once a flow has run."} />
      ) : (
        <Table label="Flow runs" head={["Status", "Cost", "Run", "Started", "Duration", "Steps", "Acts as", "Trigger"]}>
          {rows.map((r) => (
            <tr key={r.name} data-testid="flow-run-row" data-run={r.name}>
              <td className="px-3 py-2">
                <Badge color={isWaiting(r.status) ? "yellow" : undefined}>{r.status}</Badge>
              </td>
              <td className="px-3 py-2 tabular-nums">{formatCost(r.total_cost)}</td>
              <td className="max-w-xs px-3 py-2">
                <Link className="text-indigo-700 hover:underline dark:text-indigo-300" to={`/flow-runs/${encodeURIComponent(r.name)}`}>
                  <span className="line-clamp-1">{r.flow_name || r.flow_id}</span>
                </Link>
              </td>
              <td className="whitespace-nowrap px-3 py-2">{formatDate(r.started_at ?? r.creation)}</td>
              <td className="px-3 py-2">{duration(r)}</td>
              <td className="px-3 py-2">{r.hop_count}</td>
              <td className="px-3 py-2">{r.user ?? "—"}</td>
              <td className="px-3 py-2">{r.trigger_type}</td>
            </tr>
          ))}
        </Table>
      )}
      {(page > 1 || hasNext) && (
        <nav aria-label="Pages of flow runs" className="mt-3 flex items-center justify-between gap-2 text-sm">
          <Button variant="secondary" disabled={page <= 1} onClick={() => setParam("page", String(page - 1))}>
            Previous
          </Button>
          <span data-testid="flow-runs-page">Page {page}</span>
          <Button variant="secondary" disabled={!hasNext} onClick={() => setParam("page", String(page + 1))}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}
