import { useState } from "react";
import { Button, Select } from "../components/ui";
import type { Dict, Problem } from "./definition";
import { edgeCaption } from "./FlowEdgeView";
import { TextField } from "./fields";
import { NodeSettingsForm, type FlowContextInfo } from "./nodeForms";
import { nodeTypeInfo } from "./nodeTypes";
import type { FlowEdge, FlowNode } from "./serialize";

const nodeName = (node: FlowNode | undefined, id: string) => (node && typeof node.data.label === "string" && node.data.label ? node.data.label : id);

/** The connections leaving a step, and a way to add one without dragging (keyboard users). */
function NextSteps({
  node,
  nodes,
  outgoing,
  onConnect,
  onSelectEdge,
}: {
  node: FlowNode;
  nodes: FlowNode[];
  outgoing: FlowEdge[];
  onConnect: (target: string, handle: string | null) => string | null;
  onSelectEdge: (id: string) => void;
}) {
  const outputs = nodeTypeInfo(node.type)?.outputs ?? [{ id: null }];
  const [handle, setHandle] = useState<string>(outputs[0]?.id ?? "");
  const [target, setTarget] = useState("");
  const [refused, setRefused] = useState<string | null>(null);
  if (outputs.length === 0) return null;
  const add = () => {
    const error = onConnect(target, handle || null);
    setRefused(error);
    if (!error) setTarget("");
  };
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium">Next steps</h3>
      {outgoing.length === 0 ? (
        <p className="text-xs text-slate-500">None yet: the run ends after this step.</p>
      ) : (
        <ul className="space-y-1 text-xs" aria-label="Connections from this step">
          {outgoing.map((edge) => (
            <li key={edge.id}>
              <button type="button" className="text-left text-indigo-600 hover:underline dark:text-indigo-400" onClick={() => onSelectEdge(edge.id)}>
                → {nodeName(nodes.find((n) => n.id === edge.target), edge.target)}
                {edge.sourceHandle && outputs.length > 1 ? ` (${outputs.find((o) => o.id === edge.sourceHandle)?.label ?? edge.sourceHandle})` : ""}
                {edgeCaption(edge.data) ? ` · ${edgeCaption(edge.data)}` : ""}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-1">
        {outputs.length > 1 && (
          <Select aria-label="From output" value={handle} onChange={(e) => setHandle(e.target.value)}>
            {outputs.map((o) => (
              <option key={o.id ?? ""} value={o.id ?? ""}>
                {o.label}
              </option>
            ))}
          </Select>
        )}
        <Select aria-label="Connect to" value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">Connect to…</option>
          {nodes
            .filter((n) => n.id !== node.id)
            .map((n) => (
              <option key={n.id} value={n.id}>
                {nodeName(n, n.id)}
              </option>
            ))}
        </Select>
        <Button variant="secondary" onClick={add} disabled={!target}>
          Connect
        </Button>
      </div>
      {refused && <p role="alert" className="text-xs text-red-600 dark:text-red-400">{refused}</p>}
    </div>
  );
}

/** The side panel of the selected step: its name, its settings (checked as you type) and its problems. */
export function NodeConfigPanel({
  node,
  nodes,
  outgoing,
  onConnect,
  onSelectEdge,
  flow,
  isEntry,
  problems,
  readOnly,
  onChange,
  onMakeEntry,
  onDelete,
}: {
  node: FlowNode;
  nodes: FlowNode[];
  outgoing: FlowEdge[];
  onConnect: (target: string, handle: string | null) => string | null;
  onSelectEdge: (id: string) => void;
  flow: Omit<FlowContextInfo, "isEntry" | "readOnly">;
  isEntry: boolean;
  problems: Problem[];
  readOnly: boolean;
  onChange: (change: (data: Dict) => Dict, field: string) => void;
  onMakeEntry: () => void;
  onDelete: () => void;
}) {
  const info = nodeTypeInfo(node.type);
  const set = (patch: Dict, field: string) =>
    onChange((data) => {
      const next: Dict = { ...data, ...patch };
      for (const [key, value] of Object.entries(patch)) if (value === undefined) delete next[key];
      return next;
    }, field);
  // problems of single settings are shown at their fields; the rest here
  const general = problems.filter((p) => !p.field);
  return (
    <section aria-label="Step settings" className="space-y-4">
      <header>
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{info?.label ?? node.type}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">{info?.description}</p>
        <p className="mt-1 text-xs text-slate-500">
          Step id: <code data-testid="selected-node-id">{node.id}</code>
        </p>
      </header>
      <fieldset disabled={readOnly} className="space-y-4">
        <TextField label="Name" value={typeof node.data.label === "string" ? node.data.label : ""} onChange={(v) => set({ label: v || undefined }, "label")} help="Shown on the canvas." />
        <NodeSettingsForm type={String(node.type)} config={node.data} set={set} flow={{ ...flow, isEntry, readOnly }} />
        {general.length > 0 && (
          <ul className="space-y-1 rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200" aria-label="Problems of this step">
            {general.map((p) => (
              <li key={p.message}>{p.message}</li>
            ))}
          </ul>
        )}
        <NextSteps node={node} nodes={nodes} outgoing={outgoing} onConnect={onConnect} onSelectEdge={onSelectEdge} />
        <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
          {isEntry ? (
            <span className="text-xs text-emerald-700 dark:text-emerald-400">Runs start at this step.</span>
          ) : (
            <Button variant="secondary" onClick={onMakeEntry}>
              Start here
            </Button>
          )}
          <Button variant="danger" onClick={onDelete}>
            Delete step
          </Button>
        </div>
      </fieldset>
    </section>
  );
}
