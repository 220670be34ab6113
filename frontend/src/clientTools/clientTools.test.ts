import { describe, expect, it, vi } from "vitest";

vi.mock("../lib/api", () => ({ call: vi.fn(async () => ({ status: "Answered" })) }));

import { call } from "../lib/api";
import { waitOf } from "../lib/approvalWait";
import { parseFrame } from "../lib/stream";
import { applyEvent, type LiveTurn } from "../lib/turn";
import { ANSWER_METHOD, answerClientCall, asClientCall, runClientFunction, type ClientCall } from "./answer";
import { clientFunctionNames, dashboardPath, getClientFunction, registerClientFunction } from "./registry";

const pending: ClientCall = {
  call_id: "c1",
  tool_name: "page_tool",
  function_name: "echo_for_test",
  arguments: { word: "hi" },
  agent_run_id: "R1",
  conversation_id: "C1",
  expires_at: "2026-01-01 00:02:00",
};

describe("the registry", () => {
  it("has the built-in functions and takes a page's own, which it can remove again", () => {
    expect(clientFunctionNames()).toEqual(expect.arrayContaining(["get_browser_time", "get_current_page", "navigate", "show_notification"]));
    const remove = registerClientFunction("page_extra", () => 1);
    expect(getClientFunction("page_extra")).toBeTypeOf("function");
    remove();
    expect(getClientFunction("page_extra")).toBeUndefined();
  });

  it("lets navigate go to dashboard paths only", () => {
    expect(dashboardPath("/agents")).toBe("/agents");
    expect(dashboardPath("agents/A1")).toBe("/agents/A1");
    expect(dashboardPath("/huf/chat")).toBe("/chat");
    for (const bad of ["//evil.example", "/a/../../etc", "/a\\b", 5, null]) expect(dashboardPath(bad)).toBeNull();
  });
});

describe("running a call", () => {
  it("gives the function's value as JSON text, its failure as the error", async () => {
    const remove = registerClientFunction("echo_for_test", (args) => ({ echoed: args.word }));
    expect(await runClientFunction(pending, () => undefined, [])).toEqual({ result: JSON.stringify({ echoed: "hi" }) });
    remove();
    registerClientFunction("echo_for_test", () => {
      throw new Error("no page here");
    });
    expect(await runClientFunction(pending, () => undefined, [])).toEqual({ error: "no page here" });
    expect((await runClientFunction({ ...pending, function_name: "missing_fn" }, () => undefined, [])).error).toMatch(/no browser function missing_fn/);
  });

  it("navigates only after the answer was posted, and answers each call once", async () => {
    const went: string[] = [];
    const mocked = vi.mocked(call);
    mocked.mockClear();
    const navigateCall = { ...pending, call_id: "c-nav", function_name: "navigate", arguments: { path: "/agents" } };
    mocked.mockImplementationOnce(async () => {
      expect(went).toEqual([]); // not yet
      return { status: "Answered" };
    });
    expect(await answerClientCall(navigateCall, (path) => went.push(path))).toBe("answered");
    expect(went).toEqual(["/agents"]);
    expect(mocked).toHaveBeenCalledWith(ANSWER_METHOD, { agent_run_id: "R1", call_id: "c-nav", result: JSON.stringify({ navigated_to: "/huf/agents" }) });
    expect(await answerClientCall(navigateCall, (path) => went.push(path))).toBe("skipped");
    expect(mocked).toHaveBeenCalledTimes(1);
  });
});

describe("the chat's events", () => {
  const frame = { type: "client_call", ...pending, content: "The run waits for the browser to run page_tool." };

  it("parses the stream's client_call and reads it as a call", () => {
    const event = parseFrame(`data: ${JSON.stringify(frame)}`);
    expect(event).toEqual(frame);
    expect(asClientCall(event)).toEqual(pending);
    expect(parseFrame(`data: ${JSON.stringify({ ...frame, call_id: 3 })}`)).toBeNull();
    expect(asClientCall({ function_name: "x" })).toBeNull();
  });

  it("shows the turn waiting for this browser, and the run's status says so after a reload", () => {
    const turn: LiveTurn = { id: "t", conversation: "C1", prompt: "where am I?", text: "", tools: [], state: "streaming" };
    const next = applyEvent(turn, frame as Parameters<typeof applyEvent>[1]);
    expect(next).toMatchObject({ state: "waiting", runId: "R1", approval: { runId: "R1", tool: "page_tool", client: true } });
    const wait = waitOf({ agent_run_id: "R1", status: "Waiting Approval", waiting_client: true, tool_name: "page_tool", message: "m" });
    expect(wait?.client).toBe(true);
    expect(waitOf({ agent_run_id: "R1", status: "Waiting Approval", tool_name: "t", message: "m" })?.client).toBeUndefined();
  });
});
