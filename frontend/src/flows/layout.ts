/**
 * Auto-layout of a flow (for imported flows without positions): steps in layers from top to bottom,
 * each step below everything that leads to it; edges that go back up (loops) are ignored for layering.
 */

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 90;
export const GRID = 15;
const GAP_X = 60;
const GAP_Y = 60;

export interface LayoutNode {
  id: string;
}

export interface LayoutEdge {
  source: string;
  target: string;
}

const snap = (value: number): number => Math.round(value / GRID) * GRID;

/** The edges that close a cycle, found by a depth-first walk from `roots` (the first seen wins). */
function backEdges(ids: string[], edges: LayoutEdge[], roots: string[]): Set<number> {
  const out = new Map<string, Array<[number, string]>>();
  edges.forEach((e, i) => out.set(e.source, [...(out.get(e.source) ?? []), [i, e.target]]));
  const state = new Map<string, 1 | 2>(); // 1: on the current path, 2: done
  const back = new Set<number>();
  const walk = (start: string) => {
    // iterative DFS: [node, next edge position]
    const stack: Array<[string, number]> = [[start, 0]];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const list = out.get(top[0]) ?? [];
      if (top[1] >= list.length) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const [index, next] = list[top[1]++]!;
      const seen = state.get(next);
      if (seen === 1) back.add(index);
      else if (seen === undefined && ids.includes(next)) {
        state.set(next, 1);
        stack.push([next, 0]);
      }
    }
  };
  for (const root of roots) if (!state.has(root)) walk(root);
  for (const id of ids) if (!state.has(id)) walk(id);
  return back;
}

/** Positions (top-left corners, on the grid) for every node; `entry` is placed first when given. */
export function autoLayout(nodes: LayoutNode[], edges: LayoutEdge[], entry?: string): Map<string, { x: number; y: number }> {
  const ids = nodes.map((n) => n.id);
  const known = new Set(ids);
  const usable = edges.filter((e) => known.has(e.source) && known.has(e.target) && e.source !== e.target);
  const incoming = new Set(usable.map((e) => e.target));
  const roots = [...(entry && known.has(entry) ? [entry] : []), ...ids.filter((id) => !incoming.has(id) && id !== entry)];
  const back = backEdges(ids, usable, roots);
  const forward = usable.filter((_, i) => !back.has(i));

  // longest path from the roots: a step sits one layer below its lowest predecessor
  const layer = new Map<string, number>(ids.map((id) => [id, 0]));
  const preds = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of forward) preds.get(e.target)!.push(e.source);
  const order: string[] = [];
  const indegree = new Map(ids.map((id) => [id, preds.get(id)!.length]));
  const queue = ids.filter((id) => indegree.get(id) === 0);
  while (queue.length) {
    const id = queue.shift()!;
    order.push(id);
    for (const e of forward.filter((f) => f.source === id)) {
      layer.set(e.target, Math.max(layer.get(e.target)!, layer.get(id)! + 1));
      indegree.set(e.target, indegree.get(e.target)! - 1);
      if (indegree.get(e.target) === 0) queue.push(e.target);
    }
  }

  // order within a layer: by the average position of the predecessors (definition order breaks ties)
  const layers: string[][] = [];
  for (const id of order) (layers[layer.get(id)!] ??= []).push(id);
  const slot = new Map<string, number>();
  layers.forEach((row) => row.forEach((id, i) => slot.set(id, i)));
  for (const row of layers.slice(1)) {
    const weight = (id: string) => {
      const p = preds.get(id)!;
      return p.length ? p.reduce((sum, q) => sum + slot.get(q)!, 0) / p.length : slot.get(id)!;
    };
    const weights = new Map(row.map((id) => [id, weight(id)]));
    row.sort((a, b) => weights.get(a)! - weights.get(b)! || ids.indexOf(a) - ids.indexOf(b));
    row.forEach((id, i) => slot.set(id, i));
  }

  const widest = Math.max(1, ...layers.map((row) => row.length));
  const positions = new Map<string, { x: number; y: number }>();
  layers.forEach((row, depth) => {
    const offset = ((widest - row.length) * (NODE_WIDTH + GAP_X)) / 2;
    row.forEach((id, i) => {
      positions.set(id, { x: snap(offset + i * (NODE_WIDTH + GAP_X)), y: snap(depth * (NODE_HEIGHT + GAP_Y)) });
    });
  });
  return positions;
}
