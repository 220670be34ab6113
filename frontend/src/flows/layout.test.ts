import { describe, expect, it } from "vitest";
import { GRID, NODE_HEIGHT, NODE_WIDTH, autoLayout, freeSpot, readableViewport, readableZoom, type Box } from "./layout";

const ids = (...list: string[]) => list.map((id) => ({ id }));
const edge = (source: string, target: string) => ({ source, target });

describe("autoLayout", () => {
  it("puts every step below the steps that lead to it, on the grid, without overlaps", () => {
    const nodes = ids("start", "big", "approve", "done", "notify");
    const edges = [edge("start", "big"), edge("big", "approve"), edge("big", "done"), edge("approve", "done"), edge("approve", "notify")];
    const at = autoLayout(nodes, edges, "start");
    for (const e of edges) expect(at.get(e.target)!.y).toBeGreaterThan(at.get(e.source)!.y);
    const boxes = [...at.values()];
    for (const p of boxes) expect([p.x % GRID, p.y % GRID]).toEqual([0, 0]);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const apart = Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT;
        expect(apart).toBe(true);
      }
    }
  });

  it("lays out loops (cycles) and steps that nothing connects", () => {
    const nodes = ids("t", "loop", "body", "after", "alone");
    const edges = [edge("t", "loop"), edge("loop", "body"), edge("body", "loop"), edge("loop", "after")];
    const at = autoLayout(nodes, edges, "t");
    expect(at.size).toBe(5);
    expect(at.get("loop")!.y).toBeGreaterThan(at.get("t")!.y);
    expect(at.get("body")!.y).toBeGreaterThan(at.get("loop")!.y);
    expect(at.get("t")!.y).toBe(0);
    expect(at.get("alone")!.y).toBe(0);
  });

  it("ignores edges to unknown steps and self-loops", () => {
    const at = autoLayout(ids("a", "b"), [edge("a", "a"), edge("a", "ghost"), edge("a", "b")]);
    expect(at.get("b")!.y).toBeGreaterThan(at.get("a")!.y);
  });
});

describe("autoLayout keeps a flow readable", () => {
  it("keeps a chain in one straight column and spreads a branch under the step it leaves", () => {
    const at = autoLayout(ids("t", "a", "b", "c", "yes", "no", "end"), [edge("t", "a"), edge("a", "b"), edge("b", "c"), edge("c", "yes"), edge("c", "no"), edge("yes", "end"), edge("no", "end")], "t");
    expect(new Set(["t", "a", "b", "c"].map((id) => at.get(id)!.x)).size).toBe(1);
    const [yes, no, c] = [at.get("yes")!, at.get("no")!, at.get("c")!];
    expect(Math.abs(yes.x - no.x)).toBeGreaterThanOrEqual(NODE_WIDTH);
    // the branch is centred under its step, and the join under the branch
    expect(Math.abs((yes.x + no.x) / 2 - c.x)).toBeLessThanOrEqual(GRID);
    expect(Math.abs(at.get("end")!.x - c.x)).toBeLessThanOrEqual(GRID);
    expect(Math.min(...[...at.values()].map((p) => p.x))).toBe(0);
  });
});

const box = (x: number, y: number): Box => ({ x, y, width: NODE_WIDTH, height: NODE_HEIGHT });
const apart = (a: { x: number; y: number }, b: Box) => a.x >= b.x + b.width || b.x >= a.x + NODE_WIDTH || a.y >= b.y + b.height || b.y >= a.y + NODE_HEIGHT;

describe("freeSpot", () => {
  const view: Box = { x: 0, y: 0, width: 1200, height: 800 };

  it("puts a step below the anchor, on the grid, then beside it when that is taken", () => {
    const anchor = { x: 300, y: 90 };
    const first = freeSpot([box(300, 90)], view, [], anchor);
    expect(first.x).toBe(300);
    expect(first.y).toBeGreaterThan(90 + NODE_HEIGHT);
    expect([first.x % GRID, first.y % GRID]).toEqual([0, 0]);
    const second = freeSpot([box(300, 90), box(first.x, first.y)], view, [], anchor);
    expect(apart(second, box(first.x, first.y))).toBe(true);
    expect(apart(second, box(300, 90))).toBe(true);
    expect(second.y).toBe(first.y);
  });

  it("never stacks steps: ten added one after another all land apart, inside the view", () => {
    const taken: Box[] = [];
    for (let i = 0; i < 10; i++) {
      const spot = freeSpot(taken, view);
      for (const t of taken) expect(apart(spot, t)).toBe(true);
      expect(spot.x).toBeGreaterThanOrEqual(0);
      expect(spot.x + NODE_WIDTH).toBeLessThanOrEqual(1200);
      taken.push(box(spot.x, spot.y));
    }
  });

  it("keeps out from under the overview map and inside the view", () => {
    const map: Box = { x: 950, y: 600, width: 250, height: 200 };
    const anchor = { x: 900, y: 420 };
    const spot = freeSpot([box(900, 420)], view, [map], anchor);
    expect(apart(spot, map)).toBe(true);
    expect(spot.x + NODE_WIDTH).toBeLessThanOrEqual(1200);
    expect(spot.y + NODE_HEIGHT).toBeLessThanOrEqual(800);
  });

  it("makes room for steps drawn taller than usual: a new one does not stick out of the view", () => {
    const tall = { width: NODE_WIDTH, height: 160 };
    const small: Box = { x: 0, y: 0, width: 1200, height: 330 };
    const anchor = { x: 300, y: 40 };
    const taken = [{ ...anchor, ...tall }];
    const usual = freeSpot(taken, small, [], anchor);
    expect(usual.y + 160).toBeGreaterThan(330); // with the usual size in mind it would stick out below
    const spot = freeSpot(taken, small, [], anchor, tall);
    expect(spot.y + 160).toBeLessThanOrEqual(330);
    expect(spot.x >= anchor.x + NODE_WIDTH || spot.x + NODE_WIDTH <= anchor.x || spot.y >= anchor.y + 160).toBe(true);
  });
});

describe("readableZoom", () => {
  it("fits a small flow, never zooms in past 100 % nor out below 60 %", () => {
    expect(readableZoom({ x: 0, y: 0, width: 400, height: 300 }, 1200, 800)).toBe(1);
    expect(readableZoom({ x: 0, y: 0, width: 1500, height: 700 }, 1200, 800)).toBeCloseTo(1120 / 1500);
    expect(readableZoom({ x: 0, y: 0, width: 5000, height: 4000 }, 1200, 800)).toBe(0.6);
  });
});

describe("readableViewport", () => {
  it("centres a flow that fits, and shows the top-left of one that does not", () => {
    expect(readableViewport({ x: 0, y: 0, width: 400, height: 300 }, 1200, 800)).toEqual({ x: 400, y: 250, zoom: 1 });
    const big = readableViewport({ x: 100, y: 50, width: 5000, height: 4000 }, 1200, 800);
    expect(big).toEqual({ x: 40 - 100 * 0.6, y: 40 - 50 * 0.6, zoom: 0.6 });
  });
});
