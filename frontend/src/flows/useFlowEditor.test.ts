import { describe, expect, it } from "vitest";
import { sameFlow, type Snapshot } from "./useFlowEditor";

const snapshot = (): Snapshot => ({
  nodes: [{ id: "a", type: "end", position: { x: 10, y: 20 }, data: { output: "x" } }],
  edges: [],
  settings: { mode: "Normal", schemaVersion: 1, extra: {} },
});

describe("sameFlow", () => {
  it("ignores what only the canvas shows (selection, sizes, sub-pixel drags)", () => {
    const b = snapshot();
    b.nodes[0] = { ...b.nodes[0]!, selected: true, measured: { width: 220, height: 72 }, position: { x: 10.2, y: 19.8 } };
    expect(sameFlow(snapshot(), b)).toBe(true);
  });

  it("sees a moved step, changed settings and a changed flow setting", () => {
    const moved = snapshot();
    moved.nodes[0]!.position = { x: 40, y: 20 };
    expect(sameFlow(snapshot(), moved)).toBe(false);
    const edited = snapshot();
    edited.nodes[0]!.data = { output: "y" };
    expect(sameFlow(snapshot(), edited)).toBe(false);
    expect(sameFlow(snapshot(), { ...snapshot(), settings: { ...snapshot().settings, mode: "Agentic" } })).toBe(false);
  });
});
