import type { Problem } from "./definition";
import { SelectField, TextField } from "./fields";
import type { FlowSettings } from "./serialize";

export interface FlowMeta {
  flow_name: string;
  description: string;
  category: string;
}

/** The side panel when nothing is selected: the flow's name and settings, and everything wrong with it. */
export function FlowSettingsPanel({
  meta,
  onMeta,
  settings,
  onSettings,
  problems,
  warnings,
  onShowProblem,
  readOnly,
}: {
  meta: FlowMeta;
  onMeta: (patch: Partial<FlowMeta>) => void;
  settings: FlowSettings;
  onSettings: (patch: Partial<FlowSettings>, field: string) => void;
  problems: Problem[];
  /** What is probably not meant (graphRules.flowWarnings): shown apart from the problems, never blocking. */
  warnings: Problem[];
  onShowProblem: (problem: Problem) => void;
  readOnly: boolean;
}) {
  return (
    <section aria-label="Flow settings" className="space-y-4">
      <fieldset disabled={readOnly} className="space-y-3">
        <TextField label="Flow name" required value={meta.flow_name} onChange={(v) => onMeta({ flow_name: v })} problem={meta.flow_name.trim() ? undefined : "Give the flow a name."} />
        <TextField label="Description" multiline value={meta.description} onChange={(v) => onMeta({ description: v })} />
        <TextField label="Category" value={meta.category} onChange={(v) => onMeta({ category: v })} placeholder="e.g. Support" />
        <SelectField
          label="Mode"
          value={settings.mode}
          options={[["Normal", "Normal: follow the connections"], ["Agentic", "Agentic: an agent picks where there are several ways on"]]}
          onChange={(v) => onSettings({ mode: v }, "mode")}
        />
        <TextField
          label="Max steps per run"
          type="number"
          value={settings.maxHops ? String(settings.maxHops) : ""}
          placeholder="100"
          onChange={(v) => onSettings({ maxHops: v === "" ? undefined : Math.max(1, Math.trunc(Number(v)) || 1) }, "maxHops")}
          help="A run that executes this many steps stops as failed (it may loop forever)."
        />
      </fieldset>
      <div>
        <h3 className="mb-1 text-sm font-semibold">Problems</h3>
        {problems.length === 0 && warnings.length === 0 ? (
          <p className="text-xs text-emerald-700 dark:text-emerald-400" data-testid="no-problems">
            No problems found.
          </p>
        ) : problems.length === 0 ? (
          <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="no-errors">
            Nothing stops the flow from running.
          </p>
        ) : (
          <ProblemList label="Problems of this flow" testId="flow-problems" problems={problems} onShow={onShowProblem} className="text-red-700 dark:text-red-300" />
        )}
      </div>
      {warnings.length > 0 && (
        <div>
          <h3 className="mb-1 text-sm font-semibold">Warnings</h3>
          <ProblemList label="Warnings about this flow" testId="flow-warnings" problems={warnings} onShow={onShowProblem} className="text-amber-800 dark:text-amber-300" />
        </div>
      )}
    </section>
  );
}

/** Problems or warnings, each about a step or connection a button that selects it on the canvas. */
function ProblemList({ label, testId, problems, onShow, className }: { label: string; testId: string; problems: Problem[]; onShow: (problem: Problem) => void; className: string }) {
  return (
    <ul className="space-y-1 text-xs" aria-label={label} data-testid={testId}>
      {problems.map((p, i) => (
        <li key={`${i}-${p.message}`}>
          {p.node_id || p.edge_id ? (
            <button type="button" className={`text-left hover:underline ${className}`} onClick={() => onShow(p)}>
              {p.message}
            </button>
          ) : (
            <span className={className}>{p.message}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
