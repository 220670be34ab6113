import { describe, expect, it } from "vitest";
import { structureProblems } from "./graphRules";
import { chooseEntry, newEdgeData, newEdgeId, newNodeId, toCanvas, toDefinition } from "./serialize";

// the example of docs/flows.md
const EXAMPLE = {
  id: "refund-approval",
  schema_version: 1,
  entry_node_id: "start",
  mode: "Normal",
  max_hops: 100,
  nodes: [
    { id: "start", type: "trigger.webhook", data: {} },
    { id: "big", type: "condition", data: { condition: "payload.amount > 100" } },
    { id: "approve", type: "human.approval", data: { approvers: { roles: ["Huf Manager"] } } },
    { id: "done", type: "end", data: { output: "{{ payload.order }} refunded" } },
  ],
  edges: [
    { id: "e1", source: "start", target: "big" },
    { id: "e2", source: "big", target: "approve", type: "on_success" },
    { id: "e3", source: "big", target: "done", type: "on_failure" },
    { id: "e4", source: "approve", target: "done", meta: { outcome: "approved" } },
  ],
};

describe("toCanvas / toDefinition", () => {
  it("round-trips a definition: same meaning, positions added, still valid for the server", () => {
    const canvas = toCanvas(EXAMPLE);
    expect(canvas.laidOut).toBe(true);
    expect(canvas.nodes.map((n) => [n.id, n.type])).toEqual(EXAMPLE.nodes.map((n) => [n.id, n.type]));
    expect(canvas.edges.find((e) => e.id === "e4")).toMatchObject({ sourceHandle: "approved", data: { kind: "always", outcome: "approved" } });
    const out = toDefinition("refund-approval", canvas.nodes, canvas.edges, canvas.settings);
    expect(structureProblems(out, "refund-approval")).toEqual([]);
    expect(out).toMatchObject({ id: "refund-approval", schema_version: 1, entry_node_id: "start", mode: "Normal", max_hops: 100 });
    expect(out.nodes.map(({ position, ...n }) => n)).toEqual(EXAMPLE.nodes);
    expect(out.edges).toEqual([
      { id: "e1", source: "start", target: "big", type: "always" },
      { id: "e2", source: "big", target: "approve", type: "on_success" },
      { id: "e3", source: "big", target: "done", type: "on_failure" },
      { id: "e4", source: "approve", target: "done", type: "always", sourceHandle: "approved", meta: { outcome: "approved" } },
    ]);
    // a second round trip changes nothing, positions included
    const again = toCanvas(out);
    expect(again.laidOut).toBe(false);
    expect(toDefinition("refund-approval", again.nodes, again.edges, again.settings)).toEqual(out);
  });

  it("reads the server's synonyms: nested config, edge fields in data, `entry`", () => {
    const canvas = toCanvas({
      id: "f",
      entry: "a",
      nodes: [
        { id: "a", type: "trigger.webhook", position: { x: 10, y: 20 } },
        { id: "b", type: "agent.run", data: { label: "Ask", config: { agent: "Helper" } }, position: { x: 10, y: 200 } },
        { id: "c", type: "tool.call", config: { tool: "t" }, position: { x: 10, y: 400 } },
      ],
      edges: [
        { id: "x", source: "a", target: "b", data: { type: "expression", condition: "payload.go", priority: "5", label: "go" } },
        { source: "b", target: "c" },
      ],
      owner_note: "kept",
    });
    expect(canvas.laidOut).toBe(false);
    expect(canvas.nodes[1]!.data).toEqual({ label: "Ask", agent: "Helper" });
    expect(canvas.nodes[2]!.data).toEqual({ tool: "t" });
    expect(canvas.edges[0]!.data).toEqual({ kind: "expression", condition: "payload.go", priority: 5, label: "go" });
    expect(canvas.edges[1]!.id).toBe("e2");
    const out = toDefinition("f", canvas.nodes, canvas.edges, canvas.settings);
    expect(out.entry_node_id).toBe("a");
    expect(out).not.toHaveProperty("entry");
    expect(out.owner_note).toBe("kept");
    expect(out.edges[0]).toEqual({ id: "x", source: "a", target: "b", type: "expression", priority: 5, condition: "payload.go", label: "go" });
    expect(out.nodes[0]!.position).toEqual({ x: 10, y: 20 });
  });

  it("puts loop edges on the loop's body and done outputs", () => {
    const canvas = toCanvas({
      id: "f",
      entry_node_id: "l",
      nodes: [
        { id: "l", type: "loop", data: { items: "payload.rows", body: "work" } },
        { id: "work", type: "tool.call", data: { tool: "t" } },
        { id: "end", type: "end" },
        { id: "oops", type: "end" },
      ],
      edges: [
        { id: "e1", source: "l", target: "work" },
        { id: "e2", source: "l", target: "end" },
        { id: "e3", source: "l", target: "oops", type: "on_failure" },
        { id: "e4", source: "work", target: "l" },
      ],
    });
    expect(canvas.edges.map((e) => e.sourceHandle)).toEqual(["body", "done", null, null]);
  });

  it("drops an expression edge's condition only when the edge is no longer an expression", () => {
    const canvas = toCanvas(EXAMPLE);
    const edge = canvas.edges[0]!;
    edge.data = { kind: "always", condition: "payload.x" };
    expect(toDefinition("refund-approval", canvas.nodes, canvas.edges, canvas.settings).edges[0]).not.toHaveProperty("condition");
    edge.data = { kind: "expression" };
    expect(toDefinition("refund-approval", canvas.nodes, canvas.edges, canvas.settings).edges[0]!.condition).toBe("");
  });
});

describe("entry, ids and new edges", () => {
  it("starts at the trigger, else at a step nothing leads to", () => {
    const nodes = [{ id: "a", type: "tool.call" }, { id: "b", type: "trigger.schedule" }];
    expect(chooseEntry(nodes, [])).toBe("b");
    expect(chooseEntry(nodes, [], "a")).toBe("a");
    expect(chooseEntry(nodes, [], "gone")).toBe("b");
    expect(chooseEntry([{ id: "a", type: "end" }, { id: "b", type: "tool.call" }], [{ target: "a" }])).toBe("b");
    expect(chooseEntry([], [])).toBeUndefined();
  });

  it("makes unused ids", () => {
    expect(newNodeId("agent.run", ["agent-run-1"])).toBe("agent-run-2");
    expect(newNodeId("trigger.doc-event", [])).toBe("trigger-doc-event-1");
    expect(newEdgeId(["e1", "e3"])).toBe("e2");
  });

  it("gives a new edge the meaning of the output it leaves from", () => {
    expect(newEdgeData("human.approval", "rejected", [])).toEqual({ kind: "always", outcome: "rejected" });
    const success = { id: "e1", source: "c", target: "x", data: { kind: "on_success" } };
    expect(newEdgeData("condition", null, [])).toEqual({ kind: "on_success" });
    expect(newEdgeData("condition", null, [success])).toEqual({ kind: "on_failure" });
    expect(newEdgeData("tool.call", null, [])).toEqual({ kind: "always" });
  });
});
