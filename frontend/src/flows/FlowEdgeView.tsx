import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps } from "@xyflow/react";
import { cx } from "../components/ui";
import type { EdgeData } from "./serialize";
import { useFlowView } from "./viewContext";

const COLOR: Record<string, string> = {
  always: "#64748b",
  on_success: "#059669",
  on_failure: "#dc2626",
  expression: "#d97706",
};

/** How an edge reads on the canvas: when it is followed. */
export function edgeCaption(data: EdgeData | undefined): string {
  if (!data) return "";
  const parts: string[] = [];
  if (data.outcome) parts.push(data.outcome);
  if (data.kind === "on_success") parts.push("on success");
  else if (data.kind === "on_failure") parts.push("on failure");
  else if (data.kind === "expression") parts.push(data.condition ? `if ${data.condition}` : "if …");
  if (data.label) parts.push(`“${data.label}”`);
  if (data.priority) parts.push(`priority ${data.priority}`);
  const text = parts.join(" · ");
  return text.length > 48 ? `${text.slice(0, 47)}…` : text;
}

/** An edge drawn in the colour of its kind, with a caption that selects it. */
export function FlowEdgeView(props: EdgeProps) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, selected } = props;
  const data = props.data as EdgeData | undefined;
  const view = useFlowView();
  const [path, labelX, labelY] = getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 8 });
  const color = COLOR[data?.kind ?? "always"] ?? COLOR.always;
  const problems = view.problemsByEdge.get(id) ?? [];
  const caption = edgeCaption(data);
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ stroke: problems.length ? "#dc2626" : color, strokeWidth: selected ? 3 : 1.75, strokeDasharray: data?.kind === "expression" ? "6 4" : undefined }} />
      {(caption || problems.length > 0) && (
        <EdgeLabelRenderer>
          <button
            type="button"
            data-testid="flow-edge-label"
            data-edge-id={id}
            onClick={() => view.selectEdge?.(id)}
            title={problems.length ? problems.join("\n") : "Edit this connection"}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`, pointerEvents: "all" }}
            className={cx(
              "nodrag nopan absolute rounded border bg-white px-1.5 py-0.5 text-[11px] shadow-sm dark:bg-slate-900",
              problems.length ? "border-red-400 text-red-700 dark:text-red-300" : "border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300",
              selected && "ring-2 ring-indigo-500",
            )}
          >
            {caption || "problem"}
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  );
}
