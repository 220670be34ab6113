import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { BarChart } from "../components/BarChart";
import { Badge, Card, EmptyState, ErrorBanner, PageHeader, Spinner, Table } from "../components/ui";
import { errorMessage, getCount, getList } from "../lib/api";
import { can } from "../lib/boot";
import { daysAgo, formatCost, formatDate, formatNumber, monthStart, today } from "../lib/format";
import { pollWhileInFlight } from "../lib/liveRuns";
import { GettingStarted } from "./GettingStarted";

interface RunRow {
  name: string;
  agent: string;
  status: string;
  creation: string;
  total_tokens: number;
  total_cost: number;
}

const DAYS = 14;

/** Axis labels of money: "$0", "$0.005", "$1.5" (the bars' own values keep formatCost's precision). */
const costTick = (v: number) => (v === 0 ? "$0" : `$${Number(v.toPrecision(3))}`);

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-semibold" data-testid={`stat-${label}`}>
        {value}
      </p>
    </Card>
  );
}

export default function Dashboard() {
  const canRuns = can("Agent Run");
  const agents = useQuery({ queryKey: ["count", "Agent"], queryFn: () => getCount("Agent"), enabled: can("Agent") });
  const since = [monthStart(), daysAgo(DAYS - 1)].sort()[0] ?? monthStart();
  const runs = useQuery({
    queryKey: ["dashboard-runs", since],
    enabled: canRuns,
    queryFn: () =>
      getList<RunRow>("Agent Run", {
        fields: ["name", "agent", "status", "creation", "total_tokens", "total_cost"],
        filters: [["creation", ">=", `${since} 00:00:00`]],
        order_by: "creation desc",
        limit: 5000,
      }),
    // read again while a run is queued or running, so the counts, charts and recent runs follow it
    refetchInterval: (query) => pollWhileInFlight(query.state.data?.map((r) => r.status)),
  });

  const rows = runs.data ?? [];
  const month = rows.filter((r) => r.creation >= monthStart());
  const days = Array.from({ length: DAYS }, (_, i) => daysAgo(DAYS - 1 - i));
  const perDay = (pick: (r: RunRow) => number) => days.map((d) => rows.filter((r) => r.creation.startsWith(d)).reduce((s, r) => s + pick(r), 0));

  return (
    <div className="space-y-6">
      <PageHeader title="Dashboard" description="How your agents are doing." />
      <GettingStarted />
      {runs.error && <ErrorBanner title="Runs could not be loaded" message={errorMessage(runs.error)} />}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Agents" value={agents.data === undefined ? "–" : formatNumber(agents.data)} />
        <Stat label="Runs today" value={runs.data === undefined ? "–" : formatNumber(rows.filter((r) => r.creation.startsWith(today())).length)} />
        <Stat label="Tokens this month" value={runs.data === undefined ? "–" : formatNumber(month.reduce((s, r) => s + (r.total_tokens || 0), 0))} />
        <Stat label="Cost this month" value={runs.data === undefined ? "–" : formatCost(month.reduce((s, r) => s + (r.total_cost || 0), 0))} />
      </div>
      {canRuns && (
        <div className="grid gap-4 lg:grid-cols-2">
          {runs.isLoading ? (
            <Card className="lg:col-span-2">
              <Spinner label="Loading the charts…" />
            </Card>
          ) : runs.data ? (
            <>
              <Card>
                <BarChart title={`Runs per day, last ${DAYS} days`} labels={days} values={perDay(() => 1)} counts />
              </Card>
              <Card>
                <BarChart title={`Cost per day, last ${DAYS} days`} labels={days} values={perDay((r) => r.total_cost || 0)} format={formatCost} formatTick={costTick} />
              </Card>
            </>
          ) : null}
        </div>
      )}
      {canRuns && (
        <section>
          <h2 className="mb-2 font-semibold">Recent runs</h2>
          {runs.isLoading ? (
            <Spinner />
          ) : runs.error ? null : rows.length === 0 ? (
            <EmptyState title="No runs yet" description="Runs appear here once someone chats with an agent or an agent is triggered." />
          ) : (
            <Table head={["Agent", "Status", "Tokens", "Cost", "When"]}>
              {rows.slice(0, 10).map((r) => (
                <tr key={r.name} data-testid="recent-run" data-run={r.name}>
                  <td className="px-3 py-2">
                    <Link className="text-indigo-600 hover:underline dark:text-indigo-400" to={`/executions/${encodeURIComponent(r.name)}`}>
                      {r.agent}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    <Badge>{r.status}</Badge>
                  </td>
                  <td className="px-3 py-2">{formatNumber(r.total_tokens)}</td>
                  <td className="px-3 py-2">{formatCost(r.total_cost)}</td>
                  <td className="px-3 py-2">{formatDate(r.creation)}</td>
                </tr>
              ))}
            </Table>
          )}
        </section>
      )}
    </div>
  );
}
