import { Handle, Position, type NodeProps } from "@xyflow/react";
import { cx } from "../components/ui";
import type { Dict } from "./definition";
import { nodeTypeInfo } from "./nodeTypes";
import { STEP_STATUS_LABEL, stepRun, type StepRunStatus } from "./runState";
import { summary } from "./summary";
import { useFlowView } from "./viewContext";

const GROUP_COLOR: Record<string, string> = {
  triggers: "border-l-emerald-500",
  actions: "border-l-indigo-500",
  utilities: "border-l-amber-500",
  end: "border-l-slate-500",
};

const RUN_RING: Record<StepRunStatus, string> = {
  current: "ring-4 ring-sky-400 animate-pulse",
  waiting: "ring-4 ring-amber-400",
  success: "ring-2 ring-emerald-500",
  failure: "ring-2 ring-red-500",
  idle: "",
};

const RUN_BADGE: Record<StepRunStatus, string> = {
  current: "bg-sky-100 text-sky-800 dark:bg-sky-900/60 dark:text-sky-200",
  waiting: "bg-amber-100 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200",
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  failure: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  idle: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
};

/** One step on the canvas: its kind, name, a summary of its settings, problems and run state. */
export function StepNode({ id, type, data, selected }: NodeProps) {
  const info = nodeTypeInfo(type);
  const view = useFlowView();
  const problems = view.problemsByNode.get(id) ?? [];
  const run = view.run ? stepRun(view.run, id) : undefined;
  const config = data as Dict;
  const label = typeof config.label === "string" && config.label ? config.label : id;
  const outputs = info?.outputs ?? [{ id: null }];
  return (
    <div
      data-testid="flow-node"
      data-node-id={id}
      data-node-type={type}
      data-run-status={run?.status}
      aria-label={`${info?.label ?? type} step ${label}`}
      className={cx(
        "w-[220px] rounded-md border border-l-4 bg-white px-3 py-2 text-left shadow-sm dark:bg-slate-900",
        GROUP_COLOR[info?.group ?? "end"],
        problems.length ? "border-red-400 dark:border-red-500" : "border-slate-300 dark:border-slate-700",
        selected && "outline outline-2 outline-indigo-500",
        run && RUN_RING[run.status],
      )}
    >
      {info?.inputs !== false && <Handle type="target" position={Position.Top} className="!h-2.5 !w-2.5 !bg-slate-500" />}
      <div className="flex items-center justify-between gap-2">
        <span className="text-[11px] font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{info?.label ?? type}</span>
        <span className="flex items-center gap-1">
          {view.entry === id && <span className="rounded bg-emerald-100 px-1 text-[10px] text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200">Start</span>}
          {problems.length > 0 && (
            <span className="rounded bg-red-100 px-1 text-[10px] text-red-800 dark:bg-red-900/60 dark:text-red-200" title={problems.join("\n")} data-testid="node-problem-count">
              {problems.length} {problems.length === 1 ? "problem" : "problems"}
            </span>
          )}
        </span>
      </div>
      <div className="truncate text-sm font-semibold" title={label}>
        {label}
      </div>
      <div className="truncate text-xs text-slate-500 dark:text-slate-400">{summary(type ?? "", config) || "\u00a0"}</div>
      {run && run.status !== "idle" && (
        <div className="mt-1 flex items-center gap-2 text-[11px]">
          <span className={cx("rounded px-1.5 py-0.5 font-medium", RUN_BADGE[run.status])} data-testid="node-run-status">
            {STEP_STATUS_LABEL[run.status]}
          </span>
          {run.seconds !== undefined && <span className="text-slate-500">{run.seconds.toFixed(1)} s</span>}
        </div>
      )}
      {run?.status === "failure" && run.error && (
        <p className="mt-1 line-clamp-2 text-[11px] text-red-700 dark:text-red-300" title={run.error} data-testid="node-run-error">
          {run.error}
        </p>
      )}
      {outputs.map((output, index) => (
        <Handle
          key={output.id ?? "out"}
          type="source"
          position={Position.Bottom}
          id={output.id ?? undefined}
          title={output.label ? `${output.label} output: drag to the next step, or onto empty canvas to add one` : "Drag to the next step, or onto empty canvas to add one"}
          style={outputs.length > 1 ? { left: `${((index + 1) * 100) / (outputs.length + 1)}%` } : undefined}
          className="!h-2.5 !w-2.5 !bg-indigo-500"
        />
      ))}
      {outputs.length > 1 && (
        <div className="relative -mx-3 mt-1 h-3 text-[10px] leading-3 text-slate-500" aria-hidden="true">
          {outputs.map((o, index) => (
            <span key={o.id ?? "out"} className="absolute -translate-x-1/2 whitespace-nowrap" style={{ left: `${((index + 1) * 100) / (outputs.length + 1)}%` }}>
              {o.label}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
