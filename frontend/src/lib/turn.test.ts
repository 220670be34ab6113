import { describe, expect, it } from "vitest";
import { toItems, type Message } from "../components/messages";
import { applyEvent, endTurn, interleave, queuedIfStillRunning, retryOf, storedIn, turnActivity, type LiveTurn } from "./turn";

const start: LiveTurn = { id: "t1", conversation: "C1", prompt: "Hi", text: "", tools: [], state: "streaming" };

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

  it("collects the answer's content blocks in their order", () => {
    const kpi = { type: "kpi" as const, label: "Revenue", value: 3 };
    const note = { type: "markdown" as const, text: "Up." };
    let turn = applyEvent(start, { type: "delta", content: "```huf-block\n{}\n```" });
    turn = applyEvent(turn, { type: "content_block", index: 1, block: note });
    turn = applyEvent(turn, { type: "content_block", index: 0, block: kpi });
    expect(turn.blocks).toEqual([kpi, note]);
    turn = applyEvent(turn, { type: "complete", full_response: "x" });
    expect(turn.blocks).toEqual([kpi, note]);
  });

  it("a run that stops for a tool approval leaves the turn waiting, its call marked, not failed", () => {
    let turn = applyEvent(start, { type: "run_status", status: "Started", agent_run_id: "R3" });
    turn = applyEvent(turn, { type: "tool_call", tool_call_id: "c1", name: "create_todo", arguments: { description: "a" } });
    turn = applyEvent(turn, { type: "tool_call", tool_call_id: "c2", name: "create_todo", arguments: { description: "b" } });
    turn = applyEvent(turn, { type: "run_status", status: "Waiting Approval", agent_run_id: "R3" });
    expect(turn.state).toBe("streaming");
    const message = "The run waits for an approver to allow the call of create_todo.";
    turn = applyEvent(turn, { type: "approval_required", approval_id: "TA-9", tool_name: "create_todo", agent_run_id: "R3", content: message });
    expect(turn).toMatchObject({ state: "waiting", runId: "R3", approval: { runId: "R3", status: "Waiting Approval", tool: "create_todo", approvalId: "TA-9", message } });
    expect(turn.tools.map((t) => t.status)).toEqual(["Waiting approval", "Running"]);
    // the stream then closes: the turn stays waiting (no "ended unexpectedly"), and says no activity of its own
    expect(endTurn(turn)).toBe(turn);
    expect(turnActivity(turn)).toBeNull();
  });

  it("marks the turn failed with the server's message", () => {
    const turn = applyEvent(start, { type: "error", content: "The provider refused the key.", agent_run_id: "R2" });
    expect(turn).toMatchObject({ state: "failed", error: "The provider refused the key.", runId: "R2" });
  });
});

describe("turnActivity", () => {
  it("waits for the model until something comes back, then shows tools running and thinking over their results", () => {
    expect(turnActivity(start)).toBe("Waiting for the model…");
    let turn = applyEvent(start, { type: "run_status", status: "Started", agent_run_id: "R1" });
    expect(turnActivity(turn)).toBe("Waiting for the model…");
    turn = applyEvent(turn, { type: "tool_call", tool_call_id: "c1", name: "list_todos", arguments: {} });
    expect(turnActivity(turn)).toBe("Running list_todos…");
    turn = applyEvent(turn, { type: "tool_result", tool_call_id: "c1", name: "list_todos", content: "[]", status: "Success" });
    expect(turnActivity(turn)).toBe("Thinking…");
    turn = applyEvent(turn, { type: "delta", content: "None" });
    expect(turnActivity(turn)).toBeNull();
    expect(turnActivity({ ...start, state: "failed" })).toBeNull();
  });
});

describe("endTurn", () => {
  it("a stream that closed without an ending is done with text, failed without", () => {
    expect(endTurn({ ...start, text: "Hi" }).state).toBe("done");
    expect(endTurn(start)).toMatchObject({ state: "failed", error: "The answer ended unexpectedly." });
    const failed = { ...start, state: "failed" as const, error: "No key" };
    expect(endTurn(failed)).toBe(failed);
  });
});

describe("the page's own turns in the thread", () => {
  it("are dropped once the history holds their run, and otherwise stay where they were sent", () => {
    expect(storedIn({ ...start, runId: "R1" }, [null, "R1"])).toBe(true);
    expect(storedIn({ ...start, runId: "R2" }, ["R1"])).toBe(false);
    expect(storedIn(start, [null])).toBe(false);
    const lost = { ...start, id: "lost", after: 1, state: "failed" as const };
    const live = { ...start, id: "live" };
    const thread = interleave(["a", "b", "c"], [live, lost]);
    expect(thread.map((e) => (e.kind === "item" ? e.item : e.turn.id))).toEqual(["a", "lost", "b", "c", "live"]);
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

describe("retryOf", () => {
  const msg = (m: Partial<Message>): Message => ({
    name: "m", role: "user", kind: "Message", content: "", attachment: null, creation: "", status: null,
    agent_run: null, tool_name: null, tool_call_id: null, tool_status: null, ...m,
  });

  it("sends again the user message a stored error answered, with its file", () => {
    const items = toItems([
      msg({ name: "1", content: "First" }),
      msg({ name: "2", role: "agent", content: "Answer" }),
      msg({ name: "3", content: "Read this\n\nAttached files: n.txt", attachment: "/private/files/n.txt" }),
      msg({ name: "4", role: "agent", kind: "Error", content: "The provider refused the key." }),
    ]);
    expect(retryOf(items, 3)).toEqual({ prompt: "Read this", attachment: "/private/files/n.txt" });
    expect(retryOf(items, 0)).toBeNull();
  });
});

describe("queuedIfStillRunning", () => {
  const waitedBehind = applyEvent(start, { type: "error", content: "The run waits behind run R0, which waits for a tool approval; it will run in the background after that.", agent_run_id: "R1" });

  it("turns a 'failed' turn whose run is still queued into a queued one, with nothing to retry", () => {
    const turn = queuedIfStillRunning(waitedBehind, "Queued");
    expect(turn.state).toBe("queued");
    expect(turn.note).toContain("waits behind run R0");
    expect(turn.error).toBeUndefined();
  });

  it("leaves a run that really failed, or a turn without a run, as failed", () => {
    expect(queuedIfStillRunning(waitedBehind, "Failed").state).toBe("failed");
    expect(queuedIfStillRunning(waitedBehind, undefined).state).toBe("failed");
    const noRun = { ...waitedBehind, runId: undefined };
    expect(queuedIfStillRunning(noRun, "Queued").state).toBe("failed");
  });
});
