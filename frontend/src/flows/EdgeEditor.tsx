import { Button } from "../components/ui";
import type { Problem } from "./definition";
import { ExpressionInput } from "./ExpressionInput";
import { SelectField, TextField } from "./fields";
import { nodeTypeInfo } from "./nodeTypes";
import { OUTCOMES, type EdgeData, type FlowEdge, type FlowNode } from "./serialize";

const KINDS: Array<[string, string]> = [
  ["always", "Always"],
  ["on_success", "When the step succeeded"],
  ["on_failure", "When the step failed"],
  ["expression", "When a condition is true"],
];

/** The side panel of the selected connection: when it is followed, its priority, condition and outcome. */
export function EdgeEditor({
  edge,
  source,
  target,
  problems,
  readOnly,
  onChange,
  onDelete,
}: {
  edge: FlowEdge;
  source?: FlowNode;
  target?: FlowNode;
  problems: Problem[];
  readOnly: boolean;
  onChange: (patch: Partial<EdgeData>, field: string, sourceHandle?: string | null) => void;
  onDelete: () => void;
}) {
  const data: EdgeData = edge.data ?? { kind: "always" };
  const name = (node?: FlowNode) => (node ? `${typeof node.data.label === "string" && node.data.label ? node.data.label : node.id}` : "?");
  const isApproval = source?.type === "human.approval";
  const isRouter = source?.type === "router.llm";
  return (
    <section aria-label="Connection settings" className="space-y-4">
      <header>
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Connection {edge.id}</p>
        <p className="text-sm">
          {name(source)} → {name(target)}
          {edge.sourceHandle && source?.type === "loop" ? ` (${nodeTypeInfo("loop")?.outputs.find((o) => o.id === edge.sourceHandle)?.label})` : ""}
        </p>
      </header>
      <fieldset disabled={readOnly} className="space-y-4">
        <SelectField label="Followed" value={data.kind} options={KINDS} onChange={(v) => onChange({ kind: v }, "kind")} />
        {data.kind === "expression" && (
          <ExpressionInput
            label="Condition"
            kind="expression"
            required
            value={data.condition ?? ""}
            onChange={(v) => onChange({ condition: v }, "condition")}
            problem={!(data.condition ?? "").trim() ? "An expression connection needs a condition." : undefined}
            placeholder="payload.amount > 100"
            help="Sees payload, vars, nodes, last and every variable by its name."
          />
        )}
        {isApproval && (
          <SelectField
            label="Approval outcome"
            value={data.outcome ?? ""}
            options={[["", "Any (the success path)"], ...OUTCOMES.map((o) => [o, o === "timeout" ? "Timed out" : o[0]!.toUpperCase() + o.slice(1)] as [string, string])]}
            onChange={(v) => onChange({ outcome: v || undefined }, "outcome", v || null)}
            help="A rejection without a Rejected connection fails the run."
          />
        )}
        <TextField
          label="Priority"
          type="number"
          value={data.priority ? String(data.priority) : ""}
          onChange={(v) => onChange({ priority: v === "" ? undefined : Number(v) }, "priority")}
          help="Connections leaving a step are tried from the highest priority down; the first that matches is followed."
        />
        <TextField label="Label" value={data.label ?? ""} onChange={(v) => onChange({ label: v || undefined }, "label")} help={isRouter ? "Tells the router's model what this way means." : "Shown on the canvas."} />
        {problems.length > 0 && (
          <ul className="space-y-1 rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200" aria-label="Problems of this connection">
            {problems.map((p) => (
              <li key={p.message}>{p.message}</li>
            ))}
          </ul>
        )}
        <Button variant="danger" onClick={onDelete}>
          Delete connection
        </Button>
      </fieldset>
    </section>
  );
}
