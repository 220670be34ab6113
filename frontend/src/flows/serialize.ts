/**
 * Between the stored definition (docs/flows.md) and the canvas's nodes and edges. Reading follows the
 * server's synonyms (settings in `data`, `data.config` or `config`; edge fields on the edge or in its
 * `data`); writing uses one canonical form: settings in `data`, edge fields at the top of the edge.
 */

import type { Edge, Node } from "@xyflow/react";
import {
  edgeCondition,
  edgeHandle,
  edgeKind,
  edgeLabel,
  edgeOutcome,
  edgePriority,
  entryNodeId,
  isDict,
  nodeConfig,
  type DefinitionEdge,
  type DefinitionNode,
  type Dict,
  type FlowDefinition,
} from "./definition";
import { autoLayout } from "./layout";
import { isTrigger, nodeTypeInfo } from "./nodeTypes";

/** What an edge means to the engine, kept in the canvas edge's `data`. */
export interface EdgeData extends Record<string, unknown> {
  kind: string;
  priority?: number;
  condition?: string;
  outcome?: string;
  label?: string;
}

export type FlowNode = Node<Dict>;
export type FlowEdge = Edge<EdgeData>;

/** The definition's own fields (besides nodes and edges) the canvas keeps as they are. */
export interface FlowSettings {
  entry?: string;
  mode: string;
  maxHops?: number;
  schemaVersion: number;
  extra: Dict;
}

export interface CanvasState {
  nodes: FlowNode[];
  edges: FlowEdge[];
  settings: FlowSettings;
  /** Whether positions were computed (the definition had none for some nodes). */
  laidOut: boolean;
}

const OWN_KEYS = new Set(["id", "schema_version", "entry_node_id", "entry", "mode", "max_hops", "nodes", "edges"]);
export const OUTCOMES = ["approved", "rejected", "timeout"];

/** The handle an edge of `sourceType` leaves from, as the canvas draws it. */
function handleOf(edge: Dict, sourceType: string | undefined, sourceConfig: Dict): string | null {
  const explicit = edgeHandle(edge);
  const outputs = nodeTypeInfo(sourceType)?.outputs ?? [];
  if (explicit && outputs.some((o) => o.id === explicit)) return explicit;
  if (sourceType === "human.approval") {
    const outcome = edgeOutcome(edge);
    return outcome && OUTCOMES.includes(outcome) ? outcome : null;
  }
  if (sourceType === "loop") {
    if (sourceConfig.body === edge.target) return "body";
    if (sourceConfig.done === edge.target || edgeKind(edge) !== "on_failure") return "done";
  }
  return explicit ?? null;
}

/** The start node when the definition names none (or one that is gone): the trigger, else a node nothing leads to. */
export function chooseEntry(nodes: Array<{ id: string; type?: string }>, edges: Array<{ target: string }>, current?: string): string | undefined {
  if (current && nodes.some((n) => n.id === current)) return current;
  const trigger = nodes.find((n) => isTrigger(n.type));
  if (trigger) return trigger.id;
  const targets = new Set(edges.map((e) => e.target));
  return (nodes.find((n) => !targets.has(n.id)) ?? nodes[0])?.id;
}

/** The canvas state of `definition` (positions computed for nodes that have none). */
export function toCanvas(definition: Dict): CanvasState {
  const rawNodes = (Array.isArray(definition.nodes) ? definition.nodes : []).filter(isDict);
  const rawEdges = (Array.isArray(definition.edges) ? definition.edges : []).filter(isDict);
  const byId = new Map(rawNodes.map((n) => [String(n.id), n]));
  const nodes: FlowNode[] = rawNodes.map((n) => {
    const position = isDict(n.position) && Number.isFinite(Number(n.position.x)) && Number.isFinite(Number(n.position.y))
      ? { x: Number(n.position.x), y: Number(n.position.y) }
      : undefined;
    return { id: String(n.id), type: String(n.type ?? ""), position: position ?? { x: NaN, y: NaN }, data: nodeConfig(n) };
  });
  const edges: FlowEdge[] = rawEdges.map((e, index) => {
    const source = byId.get(String(e.source));
    const data: EdgeData = { kind: edgeKind(e) };
    const priority = edgePriority(e);
    if (priority) data.priority = priority;
    const condition = edgeCondition(e);
    if (condition !== undefined) data.condition = condition;
    const outcome = edgeOutcome(e);
    if (outcome) data.outcome = outcome;
    const label = edgeLabel(e);
    if (label) data.label = label;
    return {
      id: e.id ? String(e.id) : `e${index + 1}`,
      source: String(e.source),
      target: String(e.target),
      sourceHandle: handleOf(e, source ? String(source.type) : undefined, source ? nodeConfig(source) : {}),
      type: "flow",
      data,
    };
  });
  const entry = chooseEntry(nodes, edges, entryNodeId(definition));
  const missing = nodes.some((n) => Number.isNaN(n.position.x));
  if (missing) {
    const positions = autoLayout(nodes, edges, entry);
    for (const node of nodes) node.position = positions.get(node.id) ?? { x: 0, y: 0 };
  }
  const extra: Dict = {};
  for (const [key, value] of Object.entries(definition)) if (!OWN_KEYS.has(key)) extra[key] = value;
  const maxHops = Number(definition.max_hops);
  return {
    nodes,
    edges,
    settings: {
      entry,
      mode: typeof definition.mode === "string" && definition.mode ? definition.mode : "Normal",
      maxHops: Number.isFinite(maxHops) && maxHops > 0 ? maxHops : undefined,
      schemaVersion: Number(definition.schema_version) || 1,
      extra,
    },
    laidOut: missing,
  };
}

function cleanData(data: Dict): Dict {
  const out: Dict = {};
  for (const [key, value] of Object.entries(data)) if (value !== undefined) out[key] = value;
  return out;
}

/** The definition the server stores, from the canvas state. */
export function toDefinition(flowId: string, nodes: FlowNode[], edges: FlowEdge[], settings: FlowSettings): FlowDefinition {
  const defNodes: DefinitionNode[] = nodes.map((n) => ({
    id: n.id,
    type: String(n.type),
    data: cleanData(n.data ?? {}),
    position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
  }));
  const defEdges: DefinitionEdge[] = edges.map((e) => {
    const data = e.data ?? { kind: "always" };
    const out: DefinitionEdge = { id: e.id, source: e.source, target: e.target, type: data.kind || "always" };
    if (e.sourceHandle) out.sourceHandle = e.sourceHandle;
    if (data.priority) out.priority = data.priority;
    if (out.type === "expression") out.condition = data.condition ?? "";
    if (data.label) out.label = data.label;
    if (data.outcome) out.meta = { outcome: data.outcome };
    return out;
  });
  const definition: FlowDefinition = {
    ...settings.extra,
    id: flowId,
    schema_version: settings.schemaVersion || 1,
    nodes: defNodes,
    edges: defEdges,
  };
  const entry = chooseEntry(nodes, edges, settings.entry);
  if (entry) definition.entry_node_id = entry;
  definition.mode = settings.mode || "Normal";
  if (settings.maxHops) definition.max_hops = settings.maxHops;
  return definition;
}

/** A node id not used yet, from the node type (`agent-run-2`). */
export function newNodeId(type: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = type.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "step";
  for (let n = 1; ; n++) {
    const id = `${base}-${n}`;
    if (!used.has(id)) return id;
  }
}

export function newEdgeId(taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(`e${n}`)) return `e${n}`;
}

/** What a new connection from `sourceType` means: an approval's handle is its outcome, a condition's
 * first two ways out are its success and failure paths. */
export function newEdgeData(sourceType: string | undefined, sourceHandle: string | null | undefined, existing: FlowEdge[]): EdgeData {
  if (sourceType === "human.approval" && sourceHandle && OUTCOMES.includes(sourceHandle)) return { kind: "always", outcome: sourceHandle };
  if (sourceType === "condition") {
    const kinds = new Set(existing.map((e) => e.data?.kind));
    if (!kinds.has("on_success")) return { kind: "on_success" };
    if (!kinds.has("on_failure")) return { kind: "on_failure" };
  }
  return { kind: "always" };
}
