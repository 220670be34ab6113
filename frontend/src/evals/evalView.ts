/** What the Evals page shows of runs: whether one is still going, its progress, and a comparison's verdict. */
import type { Comparison, EvalRun } from "./evalApi";

export const isInFlight = (run: Pick<EvalRun, "status">): boolean => run.status === "Queued" || run.status === "Running";

/** "3 / 5" cases done. */
export const progressLabel = (run: Pick<EvalRun, "done_cases" | "total_cases">): string => `${run.done_cases ?? 0} / ${run.total_cases ?? 0}`;

/** Percent of the cases done (0 to 100). */
export const progressPercent = (run: Pick<EvalRun, "done_cases" | "total_cases">): number =>
  run.total_cases ? Math.round((100 * (run.done_cases ?? 0)) / run.total_cases) : 0;

/** One line about two runs: how many cases were fixed and broken by B, and the change in cost. */
export function comparisonSummary(comparison: Comparison): string {
  const fixed = comparison.cases.filter((c) => c.change === "fixed").length;
  const broken = comparison.cases.filter((c) => c.change === "broken").length;
  const delta = (comparison.b.total_cost ?? 0) - (comparison.a.total_cost ?? 0);
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return `${fixed} fixed, ${broken} broken; cost ${sign}$${Math.abs(delta).toFixed(4)}`;
}

/** The two runs a comparison starts with: the newest finished run against the one before it. */
export function defaultPair(runs: EvalRun[]): [string, string] | null {
  const [newest, before] = runs.filter((run) => !isInFlight(run));
  return newest && before ? [before.name, newest.name] : null;
}
