import { describe, expect, it } from "vitest";
import { allProblems, canvasProblems, connectionError, flowWarnings, structureProblems } from "./graphRules";

const NODES = [
  { id: "hook", type: "trigger.webhook" },
  { id: "tool", type: "tool.call" },
  { id: "ok", type: "human.approval" },
  { id: "each", type: "loop" },
  { id: "done", type: "end" },
];

describe("connectionError", () => {
  it("allows a plain connection between two steps", () => {
    expect(connectionError(NODES, [], { source: "hook", target: "tool" })).toBeNull();
    expect(connectionError(NODES, [], { source: "ok", target: "done", sourceHandle: "approved" })).toBeNull();
  });

  it("refuses inputs into a trigger and outputs out of an end", () => {
    expect(connectionError(NODES, [], { source: "tool", target: "hook" })).toBe("Webhook starts the flow: nothing can lead into it.");
    expect(connectionError(NODES, [], { source: "done", target: "tool" })).toBe("End ends the flow: nothing can follow it.");
  });

  it("refuses a step leading to itself, unknown steps and a second identical connection", () => {
    expect(connectionError(NODES, [], { source: "tool", target: "tool" })).toBe("A step cannot lead to itself.");
    expect(connectionError(NODES, [], { source: "tool", target: "nowhere" })).toBe("Connect two steps of this flow.");
    const edges = [{ source: "hook", target: "tool", sourceHandle: null }];
    expect(connectionError(NODES, edges, { source: "hook", target: "tool" })).toBe("These steps are connected already.");
    // the same two steps by another output of a loop is another connection
    const loopEdges = [{ source: "each", target: "tool", sourceHandle: "body" }];
    expect(connectionError(NODES, loopEdges, { source: "each", target: "tool", sourceHandle: "done" })).toBeNull();
  });

  it("needs one of the named outputs of a step that has several", () => {
    expect(connectionError(NODES, [], { source: "each", target: "tool", sourceHandle: null })).toMatch(/one of the outputs of Loop \(Each item, Done\)/);
    expect(connectionError(NODES, [], { source: "each", target: "tool", sourceHandle: "body" })).toBeNull();
  });
});

const valid = () => ({
  id: "refund",
  entry_node_id: "start",
  nodes: [
    { id: "start", type: "trigger.webhook", data: {} },
    { id: "big", type: "condition", data: { condition: "payload.amount > 100" } },
    { id: "done", type: "end", data: {} },
  ],
  edges: [
    { id: "e1", source: "start", target: "big" },
    { id: "e2", source: "big", target: "done", type: "on_success" },
  ],
});

describe("structureProblems (the server's flow_problems)", () => {
  it("finds nothing wrong with a valid definition", () => {
    expect(structureProblems(valid(), "refund")).toEqual([]);
    expect(allProblems(valid(), "refund")).toEqual([]);
  });

  it("refuses what is not an object, and a definition without a list of nodes; an empty flow is a draft", () => {
    expect(structureProblems([], "x")).toEqual([{ message: "The definition must be a JSON object." }]);
    expect(structureProblems({ id: "x" }, "x")).toEqual([{ message: "The definition needs a list of nodes." }]);
    expect(structureProblems({ id: "x", nodes: [], edges: [] }, "x")).toEqual([]);
    expect(structureProblems({ id: "x", nodes: [], entry_node_id: "a" }, "x")).toEqual([{ message: "The entry node a does not exist." }]);
    expect(structureProblems({ id: "x", nodes: [{ id: "a", type: "end" }], edges: {} }, "x")).toEqual([{ message: "edges must be a list." }]);
  });

  it("lists every problem at once, naming its node or edge", () => {
    const definition = {
      id: "other",
      entry_node_id: "missing",
      nodes: [
        { id: "a", type: "trigger.webhook" },
        { id: "a", type: "end" },
        { id: "b", type: "code.python" },
        { type: "end" },
      ],
      edges: [
        { id: "e1", source: "a", target: "ghost" },
        { id: "e2", source: "a", target: "b", type: "sometimes" },
        { id: "e3", source: "a", target: "b", type: "expression" },
        { id: "e4", source: "a", target: "b", data: { type: "expression", condition: "payload.x" } },
        "nonsense",
      ],
    };
    expect(structureProblems(definition, "refund")).toEqual([
      { message: "The id of the definition (other) must equal the Flow ID (refund)." },
      { message: "Node id a is used more than once.", node_id: "a" },
      { message: "Node b has the unknown type code.python.", node_id: "b" },
      { message: "Node 4 has no id." },
      { message: "The entry node missing does not exist." },
      { message: "Edge e1 has the unknown target node ghost.", edge_id: "e1" },
      { message: "Edge e2 has the unknown type sometimes.", edge_id: "e2" },
      { message: "Expression edge e3 needs a condition.", edge_id: "e3" },
      { message: "Edge 5 is not an object." },
    ]);
  });

  it("accepts the older `entry` key and says when there is no entry at all", () => {
    const { entry_node_id, ...rest } = valid();
    expect(structureProblems({ ...rest, entry: entry_node_id }, "refund")).toEqual([]);
    expect(structureProblems(rest, "refund")).toEqual([{ message: "The definition has no entry_node_id." }]);
  });
});

describe("canvasProblems", () => {
  it("refuses edges into a trigger or out of an end, and a second trigger", () => {
    const definition = {
      ...valid(),
      nodes: [...valid().nodes, { id: "cron", type: "trigger.schedule", data: { cron: "0 9 * * *" } }],
      edges: [...valid().edges, { id: "e9", source: "big", target: "start" }, { id: "e10", source: "done", target: "big" }],
    };
    expect(canvasProblems(definition)).toEqual([
      { message: "Only the start step triggers a run: cron is another trigger. Keep one trigger.", node_id: "cron" },
      { message: "Edge e9 leads into trigger start: a trigger starts the flow.", edge_id: "e9" },
      { message: "Edge e10 leaves end step done: nothing can follow an end.", edge_id: "e10" },
    ]);
  });

  it("names the step whose settings are incomplete, and a loop without a body", () => {
    const definition = {
      id: "f",
      entry_node_id: "t",
      nodes: [
        { id: "t", type: "trigger.webhook" },
        { id: "ask", type: "agent.run", data: { prompt: "hi" } },
        { id: "each", type: "loop", data: { items: "payload.rows" } },
      ],
      edges: [
        { id: "e1", source: "t", target: "ask" },
        { id: "e2", source: "ask", target: "each" },
      ],
    };
    expect(canvasProblems(definition)).toEqual([
      { message: "Run agent ask: Choose an agent.", node_id: "ask", field: "agent" },
      { message: 'Loop each needs a body: connect its "Each item" output.', node_id: "each" },
    ]);
    definition.edges.push({ id: "e3", source: "each", target: "ask", sourceHandle: "body" } as (typeof definition.edges)[number]);
    expect(canvasProblems(definition).map((p) => p.node_id)).toEqual(["ask"]);
  });

  it("accepts only the outcomes an approval can have", () => {
    const definition = {
      id: "f",
      entry_node_id: "ok",
      nodes: [
        { id: "ok", type: "human.approval", data: { roles: "Huf Manager" } },
        { id: "end", type: "end" },
      ],
      edges: [{ id: "e1", source: "ok", target: "end", meta: { outcome: "maybe" } }],
    };
    expect(canvasProblems(definition)).toEqual([
      { message: "Edge e1: the outcome of an approval is approved, rejected or timeout, not maybe.", edge_id: "e1" },
    ]);
  });
});

describe("flowWarnings", () => {
  it("finds nothing in a flow whose every step is reached and every output leads on", () => {
    expect(flowWarnings(valid())).toEqual([]);
    expect(flowWarnings({ id: "x", nodes: [], edges: [] })).toEqual([]);
  });

  it("names steps nothing leads to, steps the start cannot reach, and outputs that go nowhere", () => {
    const definition = {
      entry_node_id: "start",
      nodes: [
        { id: "start", type: "trigger.webhook" },
        { id: "ask", type: "human.approval" },
        { id: "lonely", type: "tool.call" },
        { id: "after", type: "transform" },
        { id: "each", type: "loop", data: { body: "after" } },
        { id: "done", type: "end" },
      ],
      edges: [
        { id: "e1", source: "start", target: "ask" },
        { id: "e2", source: "ask", target: "done", sourceHandle: "approved", meta: { outcome: "approved" } },
        { id: "e3", source: "lonely", target: "after" },
        { id: "e4", source: "after", target: "done" },
      ],
    };
    expect(flowWarnings(definition)).toEqual([
      { message: "Approval ask has nothing after Rejected: the run fails when it is rejected.", node_id: "ask", warning: true },
      { message: "Call tool lonely is not connected: nothing leads to it, so it never runs.", node_id: "lonely", warning: true },
      { message: "Transform after cannot be reached from the start step: it never runs.", node_id: "after", warning: true },
      { message: "Loop each is not connected: nothing leads to it, so it never runs.", node_id: "each", warning: true },
      { message: "Loop each has nothing after Done: the run ends after the last item.", node_id: "each", warning: true },
    ]);
  });

  it("warns about a step whose one output goes nowhere, and never about an end", () => {
    const definition = { entry_node_id: "start", nodes: [{ id: "start", type: "trigger.schedule" }, { id: "done", type: "end" }], edges: [] };
    expect(flowWarnings(definition).map((w) => w.message)).toEqual([
      "Schedule start leads nowhere: the run ends after it. Connect its output to the next step or to an End step.",
      "End done is not connected: nothing leads to it, so it never runs.",
    ]);
  });
});
