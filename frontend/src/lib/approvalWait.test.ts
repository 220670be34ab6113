import { describe, expect, it } from "vitest";
import { toItems, type Message } from "../components/messages";
import { hasEnded, markWaitingItems, statusOfWait, unansweredRun, waitOf } from "./approvalWait";

const msg = (m: Partial<Message>): Message => ({
  name: "m", role: "user", kind: "Message", content: "", attachment: null, creation: "", status: null,
  agent_run: null, tool_name: null, tool_call_id: null, tool_status: null, ...m,
});

const toolCall = (name: string, run: string, ...calls: Array<[string, string]>) =>
  msg({ name, role: "agent", kind: "Tool Call", agent_run: run, tool_calls: JSON.stringify(calls.map(([id, tool]) => ({ id, function: { name: tool, arguments: "{}" } }))) });

describe("unansweredRun", () => {
  it("is the last run when the conversation ends before its answer, none once it is answered", () => {
    const asked = [msg({ name: "1", agent_run: "R1" }), msg({ name: "2", role: "agent", agent_run: "R1", content: "Hi" }), msg({ name: "3", agent_run: "R2" })];
    expect(unansweredRun(asked)).toBe("R2");
    expect(unansweredRun([...asked, toolCall("4", "R2", ["c1", "create_todo"])])).toBe("R2");
    expect(unansweredRun([...asked, msg({ name: "5", role: "agent", kind: "Message", agent_run: "R2" })])).toBeNull();
    expect(unansweredRun([...asked, msg({ name: "6", role: "agent", kind: "Error", agent_run: "R2" })])).toBeNull();
    expect(unansweredRun([])).toBeNull();
    expect(unansweredRun([msg({ name: "7", agent_run: null })])).toBeNull();
  });
});

describe("waitOf", () => {
  it("shows a waiting run with its tool, one going on after the decision, and nothing once it ended", () => {
    const waiting = { agent_run_id: "R2", status: "Waiting Approval", waiting_approval: true, approval_id: "TA-1", tool_name: "create_todo", message: "The run waits…" };
    expect(waitOf(waiting)).toEqual({ runId: "R2", status: "Waiting Approval", tool: "create_todo", approvalId: "TA-1", message: "The run waits…" });
    expect(waitOf({ agent_run_id: "R2", status: "Started" })).toMatchObject({ runId: "R2", status: "Started" });
    expect(waitOf({ agent_run_id: "R2", status: "Success" })).toBeNull();
    expect(waitOf(undefined)).toBeNull();
  });

  it("reads back what a stream that ended waiting seeded", () => {
    const wait = { runId: "R2", status: "Waiting Approval", tool: "create_todo", approvalId: "TA-1", message: "m" };
    expect(waitOf(statusOfWait(wait))).toEqual(wait);
    expect(statusOfWait(wait).waiting_approval).toBe(true);
  });

  it("ends with Success, Failed or Cancelled, not while waiting or in flight", () => {
    expect(["Success", "Failed", "Cancelled"].map(hasEnded)).toEqual([true, true, true]);
    expect(["Waiting Approval", "Queued", "Started", undefined].map(hasEnded)).toEqual([false, false, false, false]);
  });
});

describe("markWaitingItems", () => {
  it("marks the first call of the tool not yet run in the last turn, and no earlier call", () => {
    const items = toItems([
      msg({ name: "1", agent_run: "R1" }),
      toolCall("2", "R1", ["c0", "create_todo"]), // an older turn's call left without a result
      msg({ name: "3", agent_run: "R2" }),
      toolCall("4", "R2", ["c1", "list_todos"], ["c2", "create_todo"], ["c3", "create_todo"]),
      msg({ name: "5", role: "tool", kind: "Tool Result", tool_call_id: "c1", content: "[]", status: "Completed" }),
    ]);
    const marked = markWaitingItems(items, "create_todo");
    expect(marked.map((i) => (i.kind === "tool" ? `${i.call.id}:${i.call.status}` : i.kind))).toEqual([
      "user", "c0:Running", "user", "c1:Success", "c2:Waiting approval", "c3:Running",
    ]);
    expect(markWaitingItems(items, "other_tool")).toEqual(items);
  });
});
