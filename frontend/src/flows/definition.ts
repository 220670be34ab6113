/** The flow definition JSON (docs/flows.md) and how the server reads it (huf/huf/flow_schema.py, huf/ai/flows/graph.py). */

export type Dict = Record<string, unknown>;

export interface DefinitionNode {
  id: string;
  type: string;
  data?: Dict;
  position?: { x: number; y: number };
  [key: string]: unknown;
}

export interface DefinitionEdge {
  id: string;
  source: string;
  target: string;
  type?: string;
  priority?: number;
  condition?: string;
  label?: string;
  meta?: Dict;
  sourceHandle?: string | null;
  data?: Dict;
  [key: string]: unknown;
}

export interface FlowDefinition {
  id: string;
  schema_version?: number;
  entry_node_id?: string;
  mode?: string;
  max_hops?: number;
  nodes: DefinitionNode[];
  edges: DefinitionEdge[];
  [key: string]: unknown;
}

/** One thing wrong with a definition; `node_id` / `edge_id` say where (as the server reports them). */
export interface Problem {
  message: string;
  node_id?: string;
  edge_id?: string;
  /** The setting it is about (the canvas's own checks of a step's settings). */
  field?: string;
  /** A warning: the flow saves and runs, but probably not as meant (a step nothing leads to...). */
  warning?: boolean;
}

export const EDGE_KINDS = ["always", "on_success", "on_failure", "expression"] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export const isDict = (value: unknown): value is Dict => typeof value === "object" && value !== null && !Array.isArray(value);

const filled = (value: unknown): boolean => value !== undefined && value !== null && value !== "";

/** The id of the node a run starts at (`entry_node_id`, or `entry` as older editors wrote it). */
export function entryNodeId(definition: Dict): string | undefined {
  const value = definition.entry_node_id || definition.entry;
  return typeof value === "string" && value ? value : undefined;
}

/** A node's settings: `data.config` when nested, else `data`, else `config` (graph.node_config). */
export function nodeConfig(node: Dict): Dict {
  const data = isDict(node.data) ? node.data : {};
  if (isDict(data.config)) {
    const { config, ...rest } = data;
    return { ...rest, ...(config as Dict) };
  }
  if (Object.keys(data).length) return { ...data };
  return isDict(node.config) ? { ...node.config } : {};
}

export function edgeKind(edge: Dict): string {
  const data = isDict(edge.data) ? edge.data : {};
  return String(edge.type || data.type || "always");
}

export function edgeCondition(edge: Dict): string | undefined {
  const data = isDict(edge.data) ? edge.data : {};
  const value = edge.condition || data.condition;
  return typeof value === "string" ? value : value === undefined || value === null ? undefined : String(value);
}

export function edgePriority(edge: Dict): number {
  const data = isDict(edge.data) ? edge.data : {};
  const value = Number(edge.priority ?? data.priority ?? 0);
  return Number.isFinite(value) ? value : 0;
}

/** `meta.outcome` of an edge leaving a human.approval node (approved / rejected), if any. */
export function edgeOutcome(edge: Dict): string | undefined {
  const data = isDict(edge.data) ? edge.data : {};
  for (const meta of [edge.meta, data.meta, data]) {
    if (isDict(meta) && filled(meta.outcome)) return String(meta.outcome).trim().toLowerCase();
  }
  return undefined;
}

/** The handle an edge leaves its node from (`sourceHandle` or `meta.handle`), as the loop reads it. */
export function edgeHandle(edge: Dict): string | undefined {
  const data = isDict(edge.data) ? edge.data : {};
  for (const source of [edge, data, edge.meta, data.meta]) {
    if (isDict(source)) {
      const value = source.sourceHandle || source.handle;
      if (filled(value)) return String(value).trim().toLowerCase();
    }
  }
  return undefined;
}

export function edgeLabel(edge: Dict): string | undefined {
  const data = isDict(edge.data) ? edge.data : {};
  const value = edge.label || data.label;
  return typeof value === "string" && value ? value : undefined;
}

/** The expression of a `condition` node (`condition` or `expression`, on the node or in its data). */
export function nodeCondition(node: Dict): unknown {
  const data = isDict(node.data) ? node.data : {};
  for (const source of [node, data]) {
    for (const key of ["condition", "expression"]) {
      if (filled(source[key])) return source[key];
    }
  }
  return undefined;
}

/** The first of `keys` set in `config` (settings have synonyms, e.g. `user` / `users`). */
export function configValue(config: Dict, ...keys: string[]): unknown {
  for (const key of keys) if (filled(config[key])) return config[key];
  return undefined;
}

/** Parse text as a definition object, or say plainly why it is not one. */
export function parseDefinition(text: string): { definition?: Dict; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `This is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isDict(value)) return { error: "The definition must be a JSON object." };
  return { definition: value };
}
