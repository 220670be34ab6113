import { describe, expect, it } from "vitest";
import { checkImport, groupProblems, mergeProblems } from "./importCheck";

const definition = {
  id: "orders",
  entry_node_id: "hook",
  nodes: [
    { id: "hook", type: "trigger.webhook" },
    { id: "done", type: "end" },
  ],
  edges: [{ id: "e1", source: "hook", target: "done" }],
};

describe("checkImport", () => {
  it("accepts an export and a bare definition", () => {
    const exported = checkImport(JSON.stringify({ format: "huf.flow", flow_id: "orders-2", flow_name: "Orders", definition }));
    expect(exported).toMatchObject({ flowId: "orders-2", flowName: "Orders", problems: [] });
    const bare = checkImport(JSON.stringify(definition));
    expect(bare).toMatchObject({ flowId: "orders", problems: [] });
    const nested = checkImport(JSON.stringify({ flow_id: "x", definition: JSON.stringify(definition) }));
    expect(nested.problems).toEqual([]);
  });

  it("says what is wrong, per step and connection", () => {
    const broken = {
      ...definition,
      nodes: [...definition.nodes, { id: "x", type: "code.js" }, { id: "ask", type: "agent.run", data: {} }],
      edges: [...definition.edges, { id: "e2", source: "done", target: "ghost" }, { id: "e3", source: "ask", target: "hook", type: "expression" }],
    };
    const { problems } = checkImport(JSON.stringify(broken));
    expect(groupProblems(problems)).toEqual([
      ["Step x", ["Node x has the unknown type code.js."]],
      ["Connection e2", ["Edge e2 has the unknown target node ghost.", "Edge e2 leaves end step done: nothing can follow an end."]],
      ["Connection e3", ["Expression edge e3 needs a condition.", "Edge e3 leads into trigger hook: a trigger starts the flow."]],
      ["Step ask", ["Run agent ask: Choose an agent."]],
    ]);
  });

  it("refuses text that is not a flow", () => {
    expect(checkImport("{nope").problems[0]!.message).toMatch(/^This is not valid JSON/);
    expect(checkImport("[1, 2]").problems).toEqual([{ message: "The definition must be a JSON object." }]);
    expect(checkImport(JSON.stringify({ nodes: {} })).problems).toEqual([
      { message: "The flow has no id (flow_id, or id in the definition)." },
      { message: "The definition needs a list of nodes." },
    ]);
  });

  it("keeps the server's wording where both found the same problem", () => {
    const local = [{ message: "A", node_id: "n" }, { message: "B" }];
    expect(mergeProblems(local, [{ message: "A", node_id: "n" }, { message: "C" }])).toEqual([{ message: "A", node_id: "n" }, { message: "C" }, { message: "B" }]);
  });
});
