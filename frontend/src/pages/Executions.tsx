import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router-dom";
import { LinkSelect } from "../components/FormFields";
import { Badge, EmptyState, ErrorBanner, Field, Input, PageHeader, Select, Spinner, Table } from "../components/ui";
import { errorMessage, getList } from "../lib/api";
import { formatCost, formatDate, formatNumber } from "../lib/format";
import { pollWhileInFlight } from "../lib/liveRuns";

interface RunRow {
  name: string;
  agent: string;
  status: string;
  user: string | null;
  creation: string;
  total_tokens: number;
  total_cost: number;
  prompt: string | null;
}

const STATUSES = ["Queued", "Started", "Waiting Approval", "Success", "Failed", "Cancelled"];

export default function Executions() {
  const [params, setParams] = useSearchParams();
  const agent = params.get("agent") ?? "";
  const status = params.get("status") ?? "";
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const filters: Array<[string, string, unknown]> = [];
  if (agent) filters.push(["agent", "=", agent]);
  if (status) filters.push(["status", "=", status]);
  if (from) filters.push(["creation", ">=", `${from} 00:00:00`]);
  if (to) filters.push(["creation", "<=", `${to} 23:59:59`]);

  const { data, isLoading, error } = useQuery({
    queryKey: ["runs", agent, status, from, to],
    queryFn: () =>
      getList<RunRow>("Agent Run", {
        fields: ["name", "agent", "status", "user", "creation", "total_tokens", "total_cost", "prompt"],
        filters,
        order_by: "creation desc",
        limit: 200,
      }),
    // runs still queued or running are read again until they finish: statuses, tokens and cost follow them
    refetchInterval: (query) => pollWhileInFlight(query.state.data?.map((r) => r.status)),
  });
  const rows = data ?? [];

  return (
    <div>
      <PageHeader
        title="Executions"
        description="Every run of your agents, with what it cost."
        actions={
          <Link to="/flow-runs" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
            Flow runs
          </Link>
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field label="Agent" htmlFor="run-agent">
          <LinkSelect id="run-agent" doctype="Agent" value={agent} onChange={(v) => setParam("agent", v)} placeholder="All agents" />
        </Field>
        <Field label="Status" htmlFor="run-status">
          <Select id="run-status" value={status} onChange={(e) => setParam("status", e.target.value)}>
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="From" htmlFor="run-from">
          <Input id="run-from" type="date" value={from} onChange={(e) => setParam("from", e.target.value)} />
        </Field>
        <Field label="To" htmlFor="run-to">
          <Input id="run-to" type="date" value={to} onChange={(e) => setParam("to", e.target.value)} />
        </Field>
      </div>
      {error && <ErrorBanner message={errorMessage(error)} />}
      {isLoading ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState title="No runs found" description={filters.length ? "Try other filters." : "Runs appear here once an agent has answered."} />
      ) : (
        // Status and Cost first: what a phone shows before the table scrolls sideways
        <Table label="Runs" head={["Status", "Cost", "Run", "Agent", "Tokens", "When"]}>
          {rows.map((r) => (
            <tr key={r.name} data-testid="run-row" data-run={r.name}>
              <td className="px-3 py-2" data-testid="run-row-status">
                <Badge>{r.status}</Badge>
              </td>
              <td className="px-3 py-2 tabular-nums" data-testid="run-row-cost">
                {formatCost(r.total_cost)}
              </td>
              <td className="max-w-xs px-3 py-2">
                <Link className="text-indigo-600 hover:underline dark:text-indigo-400" to={`/executions/${encodeURIComponent(r.name)}`}>
                  <span className="line-clamp-1">{r.prompt || r.name}</span>
                </Link>
              </td>
              <td className="px-3 py-2">{r.agent}</td>
              <td className="px-3 py-2" data-testid="run-row-tokens">
                {formatNumber(r.total_tokens)}
              </td>
              <td className="whitespace-nowrap px-3 py-2">{formatDate(r.creation)}</td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
