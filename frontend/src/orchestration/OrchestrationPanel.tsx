import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge, Button, Card, ErrorBanner, cx } from "../components/ui";
import { errorMessage } from "../lib/api";
import { can, getBoot, hasCapability } from "../lib/boot";
import { askConfirm } from "../lib/confirm";
import { changeOrchestration, getOrchestration, orchestrationKey, type OrchestrationAction } from "./orchestrationApi";

const ACTIVE = ["Planned", "Running", "Paused"];

/** The Agent Orchestration a run created: its plan step by step, Stop and Recreate plan. */
/** Stop and Recreate plan: the user of the parent run, or whoever sees every chat (Huf Managers, System Managers). */
function mayChange(runUser: string | null): boolean {
  return runUser === getBoot().user || hasCapability("chat.view_all") || can("Agent Orchestration", "write");
}

export function OrchestrationPanel({ run, runUser }: { run: string; runUser: string | null }) {
  const queryClient = useQueryClient();
  const key = orchestrationKey(run);
  const orchestration = useQuery({
    queryKey: key,
    queryFn: () => getOrchestration(run),
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.status) ? 5000 : false),
    retry: false,
  });
  const action = useMutation({
    mutationFn: (method: OrchestrationAction) => changeOrchestration(method, orchestration.data?.name),
    onSuccess: (data) => queryClient.setQueryData(key, data),
  });

  if (orchestration.error) return <ErrorBanner title="The orchestration could not be loaded" message={errorMessage(orchestration.error)} />;
  const o = orchestration.data;
  if (!o) return null;
  const allowed = mayChange(runUser);
  const stepRunning = o.steps.some((s) => s.status === "Running");
  return (
    <Card className="space-y-3">
      <section aria-label="Orchestration" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <h2 className="font-semibold">Orchestration</h2>
            <span data-testid="orchestration-status">
              <Badge>{o.status}</Badge>
            </span>
            <span className="text-xs text-slate-500">
              {o.steps.length} {o.steps.length === 1 ? "step" : "steps"}
              {o.current_step ? ` · current step ${o.current_step}` : ""}
            </span>
          </div>
          {allowed && (
            <div className="flex gap-2">
              <Button
                variant="danger"
                disabled={action.isPending || !ACTIVE.includes(o.status)}
                onClick={() => void askConfirm({ title: "Stop this orchestration?", message: "The remaining steps will not run.", confirmLabel: "Stop", destructive: true }).then((ok) => ok && action.mutate("stop_orchestration"))}
              >
                Stop
              </Button>
              <Button
                variant="secondary"
                disabled={action.isPending || stepRunning}
                onClick={() => void askConfirm({ title: "Recreate the plan?", message: "The steps are planned again from the start.", confirmLabel: "Recreate plan" }).then((ok) => ok && action.mutate("recreate_orchestration_plan"))}
              >
                Recreate plan
              </Button>
            </div>
          )}
        </div>
        {action.error && <ErrorBanner message={errorMessage(action.error)} />}
        {o.error_log && <ErrorBanner title="Error log" message={o.error_log} />}
        <ol className="space-y-2" aria-label="Steps">
          {o.steps.map((s) => (
            <li
              key={s.step_index}
              data-testid="orchestration-step"
              aria-current={o.current_step === s.step_index ? "step" : undefined}
              className={cx("rounded-md border p-2 text-sm", o.current_step === s.step_index ? "border-indigo-400 dark:border-indigo-600" : "border-slate-200 dark:border-slate-800")}
            >
              <div className="flex items-center gap-2">
                <span className="font-medium">Step {s.step_index}</span>
                <Badge>{s.status}</Badge>
              </div>
              <p className="mt-1 whitespace-pre-wrap">{s.instruction}</p>
              {s.output_ref && (
                <details className="mt-1">
                  <summary className="cursor-pointer text-xs text-slate-500">Output</summary>
                  <p className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs dark:bg-slate-800">{s.output_ref}</p>
                </details>
              )}
            </li>
          ))}
        </ol>
      </section>
    </Card>
  );
}
