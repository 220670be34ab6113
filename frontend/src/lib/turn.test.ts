import { describe, expect, it } from "vitest";
import { toItems, type Message } from "../components/messages";
import { applyEvent, type LiveTurn } from "./turn";

const start: LiveTurn = { conversation: "C1", prompt: "Hi", text: "", tools: [], state: "streaming" };

describe("applyEvent", () => {
  it("appends deltas, shows tool calls with their results, and ends with the full answer", () => {
    let turn = start;
    turn = applyEvent(turn, { type: "run_status", status: "Started", agent_run_id: "R1" });
    turn = applyEvent(turn, { type: "tool_call", tool_call_id: "c1", name: "get_weather", arguments: { city: "Pune" } });
    turn = applyEvent(turn, { type: "tool_result", tool_call_id: "c1", name: "get_weather", content: "Sunny", status: "Success" });
    turn = applyEvent(turn, { type: "delta", content: "It is " });
    turn = applyEvent(turn, { type: "delta", content: "sunny" });
    expect(turn.text).toBe("It is sunny");
    expect(turn.tools).toEqual([{ id: "c1", name: "get_weather", args: { city: "Pune" }, result: "Sunny", status: "Success" }]);
    turn = applyEvent(turn, { type: "complete", full_response: "It is sunny.", agent_run_id: "R1", usage: { total_tokens: 9 }, cost: 0.1 });
    expect(turn).toMatchObject({ state: "done", text: "It is sunny.", runId: "R1", cost: 0.1 });
  });

  it("marks the turn failed with the server's message", () => {
    const turn = applyEvent(start, { type: "error", content: "The provider refused the key.", agent_run_id: "R2" });
    expect(turn).toMatchObject({ state: "failed", error: "The provider refused the key.", runId: "R2" });
  });
});

describe("toItems", () => {
  const msg = (m: Partial<Message>): Message => ({
    name: "m", role: "user", kind: "Message", content: "", attachment: null, creation: "", status: null,
    agent_run: null, tool_name: null, tool_call_id: null, tool_status: null, ...m,
  });

  it("merges a stored tool call with its result, in conversation order", () => {
    const items = toItems([
      msg({ name: "1", role: "user", content: "Weather?" }),
      msg({
        name: "2", role: "agent", kind: "Tool Call", content: "",
        tool_calls: JSON.stringify([{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Pune"}' } }]),
        tool_call_id: "c1",
      }),
      msg({ name: "3", role: "tool", kind: "Tool Result", content: "Sunny", tool_call_id: "c1", status: "Completed" }),
      msg({ name: "4", role: "agent", kind: "Message", content: "It is sunny." }),
    ]);
    expect(items.map((i) => i.kind)).toEqual(["user", "tool", "agent"]);
    const tool = items[1];
    expect(tool?.kind === "tool" && tool.call).toEqual({ id: "c1", name: "get_weather", args: '{"city":"Pune"}', result: "Sunny", status: "Success" });
  });
});
