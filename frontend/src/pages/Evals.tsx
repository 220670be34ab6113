import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { ProgressBar } from "../components/ProgressBar";
import { Badge, Button, Card, EmptyState, ErrorBanner, Field, Input, PageHeader, Select, Spinner, Table } from "../components/ui";
import { compareEvalRuns, evalRunsKey, listCases, listEvalRuns, startEvalRun, type CaseSide, type EvalRun } from "../evals/evalApi";
import { comparisonSummary, defaultPair, isInFlight, progressLabel, progressPercent } from "../evals/evalView";
import { errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { formatCost, formatDate } from "../lib/format";

const seconds = (value: number | null | undefined) => `${Number(value ?? 0).toFixed(2)} s`;
const runLabel = (run: EvalRun) => `${formatDate(run.creation)} · ${run.status}${run.prompt_version ? ` · ${run.prompt_version}` : ""}`;

function StartRun({ agent }: { agent: string }) {
  const client = useQueryClient();
  const [promptVersion, setPromptVersion] = useState("");
  const [model, setModel] = useState("");
  const start = useMutation({
    mutationFn: () => startEvalRun(agent, promptVersion.trim(), model.trim()),
    onSuccess: () => client.invalidateQueries({ queryKey: evalRunsKey(agent) }),
  });
  return (
    <Card className="space-y-3">
      <h2 className="font-semibold">Run the cases</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Prompt version (optional)" help="An Agent Prompt to run the cases with instead of the agent's own instructions.">
          <Input value={promptVersion} onChange={(e) => setPromptVersion(e.target.value)} placeholder="the agent as it is" />
        </Field>
        <Field label="Model (optional)" help="Another AI Model of the agent's provider.">
          <Input value={model} onChange={(e) => setModel(e.target.value)} placeholder="the agent's model" />
        </Field>
      </div>
      {start.isError && <ErrorBanner message={errorMessage(start.error)} />}
      <Button onClick={() => start.mutate()} disabled={start.isPending}>
        {start.isPending ? "Starting…" : "Run evals"}
      </Button>
    </Card>
  );
}

function SideCells({ side }: { side: CaseSide | null }) {
  if (!side) return <td className="px-3 py-2 text-slate-500" colSpan={3}>—</td>;
  const failed = side.check_results.filter((check) => !check.passed);
  return (
    <>
      <td className="px-3 py-2">
        <Badge color={side.status === "Passed" ? "green" : "red"}>{side.status}</Badge>
        {failed.map((check, i) => (
          <span key={i} className="block text-xs text-slate-500">
            {check.kind}: {check.reason}
          </span>
        ))}
      </td>
      <td className="px-3 py-2 tabular-nums">{formatCost(side.cost)}</td>
      <td className="px-3 py-2 tabular-nums">{seconds(side.latency)}</td>
    </>
  );
}

function Compare({ runs }: { runs: EvalRun[] }) {
  const initial = defaultPair(runs);
  const [runA, setRunA] = useState(initial?.[0] ?? "");
  const [runB, setRunB] = useState(initial?.[1] ?? "");
  const comparison = useQuery({
    queryKey: ["eval-compare", runA, runB],
    queryFn: () => compareEvalRuns(runA, runB),
    enabled: Boolean(runA && runB),
  });
  const finished = runs.filter((run) => !isInFlight(run));
  if (finished.length < 2) return <EmptyState title="Nothing to compare yet" description="Two finished eval runs can be compared side by side." />;
  return (
    <section aria-label="Compare two runs" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Run A">
          <Select aria-label="Run A" value={runA} onChange={(e) => setRunA(e.target.value)}>
            <option value="">Choose a run</option>
            {finished.map((run) => (
              <option key={run.name} value={run.name}>{runLabel(run)}</option>
            ))}
          </Select>
        </Field>
        <Field label="Run B">
          <Select aria-label="Run B" value={runB} onChange={(e) => setRunB(e.target.value)}>
            <option value="">Choose a run</option>
            {finished.map((run) => (
              <option key={run.name} value={run.name}>{runLabel(run)}</option>
            ))}
          </Select>
        </Field>
      </div>
      {comparison.isError && <ErrorBanner message={errorMessage(comparison.error)} />}
      {comparison.data && (
        <>
          <p className="text-sm" data-testid="comparison-summary">{comparisonSummary(comparison.data)}</p>
          <Table label="Comparison" head={["Case", "A", "A cost", "A latency", "B", "B cost", "B latency", "Change"]}>
            {comparison.data.cases.map((row) => (
              <tr key={row.eval_case} data-testid="comparison-row">
                <td className="px-3 py-2 font-medium">{row.case_title}</td>
                <SideCells side={row.a} />
                <SideCells side={row.b} />
                <td className="px-3 py-2">
                  <Badge color={row.change === "fixed" ? "green" : row.change === "broken" ? "red" : "gray"}>{row.change}</Badge>
                </td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </section>
  );
}

export default function Evals() {
  const { agent = "" } = useParams();
  const cases = useQuery({ queryKey: ["eval-cases", agent], queryFn: () => listCases(agent) });
  const runs = useQuery({
    queryKey: evalRunsKey(agent),
    queryFn: () => listEvalRuns(agent),
    refetchInterval: (query) => ((query.state.data ?? []).some(isInFlight) ? 2_000 : false),
  });
  if (cases.isLoading || runs.isLoading) return <Spinner />;
  if (cases.isError) return <ErrorBanner message={errorMessage(cases.error)} />;
  return (
    <div className="space-y-6">
      <PageHeader
        title={`Evals of ${agent}`}
        description="Test cases with checks on the answer; each eval run executes them in a sandbox and records the results."
        actions={
          <Link to={`/agents/${encodeURIComponent(agent)}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
            Agent
          </Link>
        }
      />
      {can("Agent", "write") && <StartRun agent={agent} />}
      <section aria-label="Cases" className="space-y-2">
        <h2 className="font-semibold">Cases</h2>
        {cases.data?.length ? (
          <Table label="Cases" head={["Case", "Prompt", "Checks", "Enabled"]}>
            {cases.data.map((c) => (
              <tr key={c.name}>
                <td className="px-3 py-2 font-medium">{c.title}</td>
                <td className="max-w-xs truncate px-3 py-2">{c.prompt}</td>
                <td className="px-3 py-2">{c.checks.map((check) => check.kind).join(", ") || "—"}</td>
                <td className="px-3 py-2">{c.enabled ? "Yes" : "No"}</td>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState title="No cases yet" description="Add Agent Eval Cases for this agent in Desk or over the REST API." />
        )}
      </section>
      <section aria-label="Eval runs" className="space-y-2">
        <h2 className="font-semibold">Eval runs</h2>
        {runs.isError && <ErrorBanner message={errorMessage(runs.error)} />}
        {runs.data?.length ? (
          <Table label="Eval runs" head={["Started", "Status", "Progress", "Passed", "Failed", "Cost", "Latency", "Prompt version", "Model"]}>
            {runs.data.map((run) => (
              <tr key={run.name} data-testid="eval-run-row">
                <td className="px-3 py-2">{formatDate(run.creation)}</td>
                <td className="px-3 py-2">
                  <Badge color={run.status === "Passed" ? "green" : undefined}>{run.status}</Badge>
                </td>
                <td className="min-w-32 px-3 py-2">
                  <ProgressBar label="Cases done" percent={progressPercent(run)} detail={progressLabel(run)} />
                </td>
                <td className="px-3 py-2 tabular-nums">{run.passed_cases}</td>
                <td className="px-3 py-2 tabular-nums">{run.failed_cases}</td>
                <td className="px-3 py-2 tabular-nums">{formatCost(run.total_cost)}</td>
                <td className="px-3 py-2 tabular-nums">{seconds(run.total_latency)}</td>
                <td className="px-3 py-2">{run.prompt_version ?? "—"}</td>
                <td className="px-3 py-2">{run.model ?? "—"}</td>
              </tr>
            ))}
          </Table>
        ) : (
          <EmptyState title="No eval runs yet" />
        )}
      </section>
      <section className="space-y-2">
        <h2 className="font-semibold">Compare two runs</h2>
        <Compare key={(runs.data ?? []).filter((run) => !isInFlight(run)).length} runs={runs.data ?? []} />
      </section>
    </div>
  );
}
