import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ProgressBar, type ProgressTone } from "../components/ProgressBar";
import { Button, Card, EmptyState, ErrorBanner, PageHeader, Spinner, cx } from "../components/ui";
import { errorMessage } from "../lib/api";
import { useConfirm } from "../lib/confirm";
import { formatDate } from "../lib/format";
import { barPercent, budgetTone, BUDGETS_KEY, budgetsApi, coverage, type BudgetRow, type BudgetTone, type KillSwitch } from "../budgets/budgetsApi";

const BAR_TONES: Record<BudgetTone, ProgressTone> = { ok: "ok", warning: "warning", "used-up": "danger" };

function BudgetCard({ row }: { row: BudgetRow }) {
  const tone = budgetTone(row);
  const spent = `${row.spend.toFixed(4)} / ${row.limit_usd} USD (${row.percent}%)`;
  return (
    <Card>
      <article aria-label={`Budget ${row.name}`} data-testid="budget" data-tone={tone} className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="font-medium">
            {row.name} {!row.enabled && <span className="text-xs text-slate-500">(disabled)</span>}
          </h2>
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {coverage(row)} · per {row.period.toLowerCase()} · resets {formatDate(row.resets_at)}
          </span>
        </div>
        <ProgressBar label={`Spent this ${row.period.toLowerCase()}`} percent={barPercent(row.percent)} detail={spent} tone={BAR_TONES[tone]} />
        {tone === "used-up" && <p className="text-sm font-medium text-red-700 dark:text-red-400">Used up: runs are refused</p>}
        {tone === "warning" && <p className="text-sm text-amber-700 dark:text-amber-400">Past its {row.warning_percent}% warning</p>}
      </article>
    </Card>
  );
}

function KillSwitchCard({ state }: { state: KillSwitch }) {
  const confirm = useConfirm();
  const client = useQueryClient();
  const flip = useMutation({
    mutationFn: (paused: boolean) => budgetsApi.setPaused(paused),
    onSuccess: () => client.invalidateQueries({ queryKey: BUDGETS_KEY }),
  });
  const ask = async () => {
    const pausing = !state.paused;
    const ok = await confirm(
      pausing
        ? { title: "Pause all runs?", message: "New agent runs, triggers and flows are refused, and running runs stop at their next step.", confirmLabel: "Pause all runs", destructive: true }
        : { title: "Resume all runs?", message: "Agent runs, triggers and flows start again.", confirmLabel: "Resume" },
    );
    if (ok) flip.mutate(pausing);
  };
  return (
    <Card className={cx(state.paused && "border-red-400 dark:border-red-700")}>
      <section aria-label="Kill switch" data-testid="kill-switch" data-paused={state.paused ? "1" : "0"} className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-medium">{state.paused ? "All runs are paused" : "Runs are allowed"}</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {state.paused ? `Paused by ${state.paused_by ?? "?"} at ${formatDate(state.paused_at)}.` : "Pause every agent run, trigger and flow at once."}
          </p>
        </div>
        {state.can_change && (
          <Button variant={state.paused ? "primary" : "danger"} onClick={ask} disabled={flip.isPending}>
            {state.paused ? "Resume all runs" : "Pause all runs"}
          </Button>
        )}
      </section>
      {flip.error && <ErrorBanner message={errorMessage(flip.error)} />}
    </Card>
  );
}

export default function Budgets() {
  const query = useQuery({ queryKey: BUDGETS_KEY, queryFn: budgetsApi.list, refetchInterval: 30_000 });
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader
        title="Budgets"
        description="Spend in USD against each budget this period; a used-up budget refuses runs until it resets."
        actions={
          query.data?.kill_switch.can_change && (
            <a className="text-sm text-indigo-700 underline dark:text-indigo-300" href="/app/huf-budget">
              Manage budgets in Desk
            </a>
          )
        }
      />
      {query.isLoading && <Spinner />}
      {query.error && <ErrorBanner message={errorMessage(query.error)} />}
      {query.data && (
        <>
          <KillSwitchCard state={query.data.kill_switch} />
          {query.data.budgets.length === 0 ? (
            <EmptyState title="No budgets" description="Add a Huf Budget (site, agent or user; per day or month) in Desk." />
          ) : (
            query.data.budgets.map((row) => <BudgetCard key={row.name} row={row} />)
          )}
        </>
      )}
    </div>
  );
}
