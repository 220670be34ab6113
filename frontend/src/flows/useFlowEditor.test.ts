import { describe, expect, it } from "vitest";
import { sameFlow, withConnectedStep, type Snapshot } from "./useFlowEditor";

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

describe("withConnectedStep", () => {
  const start = (): Snapshot => ({
    nodes: [
      { id: "ask", type: "human.approval", position: { x: 0, y: 0 }, data: {}, selected: true },
      { id: "done", type: "end", position: { x: 0, y: 200 }, data: {} },
    ],
    edges: [],
    settings: { mode: "Normal", schemaVersion: 1, extra: {} },
  });

  it("adds the step where the connection was dropped, connected from that output, and selects it", () => {
    const result = withConnectedStep(start(), "tool.call", { x: 30, y: 300 }, { source: "ask", sourceHandle: "rejected" });
    if ("error" in result) throw new Error(result.error);
    const added = result.view.nodes.find((n) => n.id === result.id)!;
    expect([added.type, added.position, added.selected]).toEqual(["tool.call", { x: 30, y: 300 }, true]);
    expect(result.view.nodes.filter((n) => n.selected).map((n) => n.id)).toEqual([result.id]);
    expect(result.view.edges).toHaveLength(1);
    expect(result.view.edges[0]).toMatchObject({ source: "ask", target: result.id, sourceHandle: "rejected", data: { outcome: "rejected" } });
  });

  it("refuses what the rules refuse: a trigger after a step, anything after an end", () => {
    expect(withConnectedStep(start(), "trigger.webhook", { x: 0, y: 0 }, { source: "ask", sourceHandle: "approved" })).toEqual({ error: "Webhook starts the flow: nothing can lead into it." });
    expect(withConnectedStep(start(), "end", { x: 0, y: 0 }, { source: "done" })).toEqual({ error: "End ends the flow: nothing can follow it." });
  });
});
