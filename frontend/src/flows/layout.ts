/**
 * Auto-layout of a flow (Arrange, and imported flows without positions): steps in layers from top to bottom,
 * each step below everything that leads to it; edges that go back up (loops) are ignored for layering.
 * Also where a new step goes (freeSpot) and the zoom that keeps a laid-out flow readable (readableZoom).
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

  // each step under its predecessors (their middle), a row's steps kept a step's width apart: a chain stays
  // straight and a branch spreads under the step it leaves
  const STEP_X = NODE_WIDTH + GAP_X;
  const x = new Map<string, number>();
  layers.forEach((row, depth) => {
    const wanted = row.map((id, i) => {
      const p = depth === 0 ? [] : preds.get(id)!.filter((q) => x.has(q));
      return p.length ? p.reduce((sum, q) => sum + x.get(q)!, 0) / p.length : i * STEP_X;
    });
    const placed: number[] = [];
    wanted.forEach((w, i) => placed.push(i === 0 ? w : Math.max(w, placed[i - 1]! + STEP_X)));
    // pushed right to keep apart: move the row back by the mean push so it stays centred under its parents
    const shift = placed.reduce((sum, p, i) => sum + p - wanted[i]!, 0) / (placed.length || 1);
    row.forEach((id, i) => x.set(id, placed[i]! - shift));
  });
  const left = Math.min(0, ...x.values());
  const positions = new Map<string, { x: number; y: number }>();
  layers.forEach((row, depth) => {
    for (const id of row) positions.set(id, { x: snap(x.get(id)! - left), y: snap(depth * (NODE_HEIGHT + GAP_Y)) });
  });
  return positions;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MARGIN = 2 * GRID;
const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width + MARGIN && b.x < a.x + a.width + MARGIN && a.y < b.y + b.height + MARGIN && b.y < a.y + a.height + MARGIN;
const inside = (a: Box, area: Box): boolean => a.x >= area.x && a.y >= area.y && a.x + a.width <= area.x + area.width && a.y + a.height <= area.y + area.height;

/**
 * Where a new step goes (its top-left corner, on the grid): near `anchor` (the step selected or added last:
 * below it first, then beside), else in the middle of `visible`; never on another step (`taken`) or under
 * what covers the canvas (`covered`: the overview map); inside `visible` when any such spot is (all in the
 * canvas's coordinates). `size` is the room a step takes (default: a step's usual size; where steps are
 * drawn taller, a new one placed at the view's edge with the usual size would stick out of it).
 */
export function freeSpot(
  taken: Box[],
  visible: Box,
  covered: Box[] = [],
  anchor?: { x: number; y: number },
  size: { width: number; height: number } = { width: NODE_WIDTH, height: NODE_HEIGHT },
): { x: number; y: number } {
  const STEP_X = size.width + GAP_X;
  const STEP_Y = size.height + GAP_Y;
  const start = anchor ?? { x: visible.x + visible.width / 2 - size.width / 2, y: visible.y + visible.height / 2 - size.height / 2 };
  const candidates: Array<{ x: number; y: number; cost: number }> = [];
  for (let row = -6; row <= 8; row++) {
    for (let col = -4; col <= 4; col++) {
      if (anchor && row === 0 && col === 0) continue;
      // below the anchor comes first, then beside it, then above it (without one: around the middle)
      const cost = Math.abs(col) * 0.8 + (row > 0 ? row : anchor ? 1.5 - row * 1.5 : -row);
      candidates.push({ x: snap(start.x + col * STEP_X), y: snap(start.y + row * STEP_Y), cost });
    }
  }
  candidates.sort((a, b) => a.cost - b.cost);
  const box = (c: { x: number; y: number }): Box => ({ x: c.x, y: c.y, ...size });
  const free = candidates.filter((c) => !taken.some((t) => overlaps(box(c), t)));
  const seen = free.find((c) => inside(box(c), visible) && !covered.some((m) => overlaps(box(c), m)));
  const spot = seen ?? free[0] ?? candidates[0]!;
  return { x: spot.x, y: spot.y };
}

/** The zoom that shows `bounds` whole in a `width` x `height` view (with `padding` around), kept in [min, max]. */
export function readableZoom(bounds: Box, width: number, height: number, { min = 0.6, max = 1, padding = 40 } = {}): number {
  const fit = Math.min((width - 2 * padding) / Math.max(bounds.width, 1), (height - 2 * padding) / Math.max(bounds.height, 1));
  return Math.min(max, Math.max(min, fit));
}

/** The view that shows `bounds` at a readable zoom (readableZoom): centred when it fits, else its top-left
 * corner in view (the rest a pan away). React Flow's viewport: screen = canvas * zoom + (x, y). */
export function readableViewport(bounds: Box, width: number, height: number, padding = 40): { x: number; y: number; zoom: number } {
  const zoom = readableZoom(bounds, width, height, { padding });
  const place = (start: number, size: number, room: number) => (size * zoom <= room - 2 * padding ? (room - size * zoom) / 2 : padding) - start * zoom;
  return { x: place(bounds.x, bounds.width, width), y: place(bounds.y, bounds.height, height), zoom };
}
