import { describe, expect, it } from "vitest";
import { GRID, NODE_HEIGHT, NODE_WIDTH, autoLayout } from "./layout";

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
