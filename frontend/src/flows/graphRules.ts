/**
 * The rules of a flow graph, checked as the user edits: which connections the canvas allows, and what is
 * wrong with a definition. `structureProblems` mirrors the server's `flow_problems` (huf/huf/flow_schema.py)
 * word for word; the server stays the authority (it also checks expressions with its own evaluator).
 */

import { configProblems } from "./nodeConfig";
import {
  EDGE_KINDS,
  edgeCondition,
  edgeHandle,
  edgeKind,
  edgeOutcome,
  entryNodeId,
  isDict,
  nodeConfig,
  type Dict,
  type Problem,
} from "./definition";
import { NODE_TYPES, isTrigger, nodeTypeInfo } from "./nodeTypes";

const KNOWN_TYPES = new Set(NODE_TYPES.map((info) => info.type));
const KNOWN_EDGES = new Set<string>(EDGE_KINDS);

export interface ConnectionAttempt {
  source: string | null;
  target: string | null;
  sourceHandle?: string | null;
}

interface GraphNode {
  id: string;
  type?: string;
}

interface GraphEdge {
  source: string;
  target: string;
  sourceHandle?: string | null;
}

/** Why the canvas refuses `attempt` (null when it may be made). */
export function connectionError(nodes: GraphNode[], edges: GraphEdge[], attempt: ConnectionAttempt): string | null {
  const source = nodes.find((n) => n.id === attempt.source);
  const target = nodes.find((n) => n.id === attempt.target);
  if (!source || !target) return "Connect two steps of this flow.";
  if (source.id === target.id) return "A step cannot lead to itself.";
  const from = nodeTypeInfo(source.type);
  if (from && from.outputs.length === 0) return `${from.label} ends the flow: nothing can follow it.`;
  if (from && from.outputs.length > 1 && !from.outputs.some((o) => o.id === (attempt.sourceHandle ?? null))) {
    return `Start the connection from one of the outputs of ${from.label} (${from.outputs.map((o) => o.label).join(", ")}).`;
  }
  const to = nodeTypeInfo(target.type);
  if (to && !to.inputs) return `${to.label} starts the flow: nothing can lead into it.`;
  const handle = attempt.sourceHandle ?? null;
  if (edges.some((e) => e.source === source.id && e.target === target.id && (e.sourceHandle ?? null) === handle)) {
    return "These steps are connected already.";
  }
  return null;
}

/** Everything wrong with the structure of `definition`: the server's `flow_problems`, same words. */
export function structureProblems(definition: unknown, flowId?: string): Problem[] {
  if (!isDict(definition)) return [{ message: "The definition must be a JSON object." }];
  const problems: Problem[] = [];
  const add = (message: string, where: { node_id?: unknown; edge_id?: unknown } = {}) => {
    const problem: Problem = { message };
    if (where.node_id !== undefined && where.node_id !== null) problem.node_id = String(where.node_id);
    if (where.edge_id !== undefined && where.edge_id !== null && where.edge_id !== "") problem.edge_id = String(where.edge_id);
    problems.push(problem);
  };
  if (flowId !== undefined && definition.id !== flowId) {
    add(`The id of the definition (${show(definition.id)}) must equal the Flow ID (${flowId}).`);
  }
  const nodes = definition.nodes;
  const edges = definition.edges === undefined ? [] : definition.edges;
  if (!Array.isArray(nodes)) {
    add("The definition needs a list of nodes.");
    return problems;
  }
  if (!Array.isArray(edges)) {
    add("edges must be a list.");
    return problems;
  }
  const ids = new Set<string>();
  nodes.forEach((node, index) => {
    if (!isDict(node) || !node.id) {
      add(`Node ${index + 1} has no id.`);
      return;
    }
    const id = String(node.id);
    if (ids.has(id)) add(`Node id ${id} is used more than once.`, { node_id: id });
    ids.add(id);
    if (!KNOWN_TYPES.has(String(node.type))) add(`Node ${id} has the unknown type ${show(node.type)}.`, { node_id: id });
  });
  const entry = entryNodeId(definition);
  if (!entry) {
    if (nodes.length) add("The definition has no entry_node_id."); // an empty flow is a draft
  } else if (!ids.has(entry)) add(`The entry node ${entry} does not exist.`);

  edges.forEach((edge, index) => {
    if (!isDict(edge)) {
      add(`Edge ${index + 1} is not an object.`);
      return;
    }
    const label = edge.id ? String(edge.id) : String(index + 1);
    for (const end of ["source", "target"] as const) {
      if (!ids.has(String(edge[end]))) add(`Edge ${label} has the unknown ${end} node ${show(edge[end])}.`, { edge_id: edge.id });
    }
    const kind = edgeKind(edge);
    if (!KNOWN_EDGES.has(kind)) add(`Edge ${label} has the unknown type ${kind}.`, { edge_id: edge.id });
    else if (kind === "expression" && !(edgeCondition(edge) ?? "").trim()) {
      add(`Expression edge ${label} needs a condition.`, { edge_id: edge.id });
    }
  });
  return problems;
}

/** What the canvas adds to the server's rules: how steps connect, and each step's settings. */
export function canvasProblems(definition: Dict): Problem[] {
  const nodes = (Array.isArray(definition.nodes) ? definition.nodes : []).filter(isDict);
  const edges = (Array.isArray(definition.edges) ? definition.edges : []).filter(isDict);
  const byId = new Map(nodes.map((n) => [String(n.id), n]));
  const problems: Problem[] = [];
  const triggers = nodes.filter((n) => isTrigger(String(n.type)));
  const entry = entryNodeId(definition);
  if (triggers.length > 1) {
    for (const node of triggers) {
      if (node.id !== entry) {
        problems.push({ message: `Only the start step triggers a run: ${node.id} is another trigger. Keep one trigger.`, node_id: String(node.id) });
      }
    }
  }
  for (const edge of edges) {
    const id = edge.id ? String(edge.id) : undefined;
    const source = byId.get(String(edge.source));
    const target = byId.get(String(edge.target));
    if (target && isTrigger(String(target.type))) {
      problems.push({ message: `Edge ${id ?? ""} leads into trigger ${target.id}: a trigger starts the flow.`.replace("  ", " "), edge_id: id });
    }
    if (source && nodeTypeInfo(String(source.type))?.outputs.length === 0) {
      problems.push({ message: `Edge ${id ?? ""} leaves end step ${source.id}: nothing can follow an end.`.replace("  ", " "), edge_id: id });
    }
    if (source?.type === "human.approval") {
      const outcome = edgeOutcome(edge);
      if (outcome && !["approved", "rejected", "timeout"].includes(outcome)) {
        problems.push({ message: `Edge ${id}: the outcome of an approval is approved, rejected or timeout, not ${outcome}.`, edge_id: id });
      }
    }
  }
  for (const node of nodes) {
    const id = String(node.id);
    const out = edges.filter((e) => e.source === node.id);
    if (node.type === "loop") {
      const config = nodeConfig(node);
      if (!config.body && !out.some((e) => edgeHandle(e) === "body")) {
        problems.push({ message: `Loop ${id} needs a body: connect its "Each item" output.`, node_id: id });
      }
    }
    for (const problem of configProblems(String(node.type), nodeConfig(node))) {
      problems.push({ message: `${nodeTypeInfo(String(node.type))?.label ?? "Step"} ${id}: ${problem.message}`, node_id: id, field: problem.field });
    }
  }
  return problems;
}

/**
 * What is probably not meant, though the flow saves and runs: steps no run reaches from the start step,
 * and outputs that go nowhere (the run ends, or fails, there). Each names its step; all are warnings.
 */
export function flowWarnings(definition: Dict): Problem[] {
  const nodes = (Array.isArray(definition.nodes) ? definition.nodes : []).filter(isDict);
  const edges = (Array.isArray(definition.edges) ? definition.edges : []).filter(isDict);
  const ids = new Set(nodes.map((n) => String(n.id)));
  const entry = entryNodeId(definition);
  const warnings: Problem[] = [];
  const warn = (node: Dict, message: string) => warnings.push({ message: `${nodeTypeInfo(String(node.type))?.label ?? "Step"} ${String(node.id)} ${message}`, node_id: String(node.id), warning: true });

  // reachable from the start step, along every connection
  const reached = new Set<string>();
  if (entry && ids.has(entry)) {
    const queue = [entry];
    reached.add(entry);
    while (queue.length) {
      const id = queue.shift()!;
      for (const e of edges) {
        const target = String(e.target);
        if (String(e.source) === id && ids.has(target) && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
  }
  for (const node of nodes) {
    const id = String(node.id);
    const type = String(node.type);
    const info = nodeTypeInfo(type);
    if (!info) continue;
    const out = edges.filter((e) => String(e.source) === id && ids.has(String(e.target)));
    // a trigger that is not the start is an error already (canvasProblems)
    if (entry && ids.has(entry) && !reached.has(id) && !isTrigger(type)) {
      const into = edges.some((e) => String(e.target) === id && ids.has(String(e.source)));
      warn(node, into ? "cannot be reached from the start step: it never runs." : "is not connected: nothing leads to it, so it never runs.");
    }
    if (info.outputs.length === 1 && out.length === 0) {
      warn(node, "leads nowhere: the run ends after it. Connect its output to the next step or to an End step.");
    } else if (type === "human.approval") {
      const takes = (outcome: string) => out.some((e) => edgeOutcome(e) === outcome || edgeHandle(e) === outcome);
      const plain = out.some((e) => !edgeOutcome(e) && !edgeHandle(e));
      if (!takes("approved") && !plain) warn(node, "has nothing after Approved: the run ends when it is approved.");
      if (!takes("rejected")) warn(node, "has nothing after Rejected: the run fails when it is rejected.");
    } else if (type === "loop") {
      const config = nodeConfig(node);
      const done = config.done || out.some((e) => edgeHandle(e) !== "body" && edgeKind(e) !== "on_failure" && String(e.target) !== config.body);
      if (!done) warn(node, "has nothing after Done: the run ends after the last item.");
    }
  }
  return warnings;
}

/** Structure (as the server checks it) and the canvas's own rules, together. */
export function allProblems(definition: unknown, flowId?: string): Problem[] {
  const problems = structureProblems(definition, flowId);
  return isDict(definition) ? [...problems, ...canvasProblems(definition)] : problems;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "None";
  return typeof value === "string" ? value : JSON.stringify(value);
}
