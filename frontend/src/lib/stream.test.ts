import { describe, expect, it } from "vitest";
import { FrameParser, parseFrame } from "./stream";

describe("FrameParser", () => {
  it("returns whole events only, across arbitrary chunk boundaries", () => {
    const parser = new FrameParser();
    const wire = 'data: {"type":"delta","content":"Hel"}\n\ndata: {"type":"delta","content":"lo"}\n\ndata: {"type":"complete","full_response":"Hello"}\n\n';
    const events = [];
    for (let i = 0; i < wire.length; i += 7) events.push(...parser.push(wire.slice(i, i + 7)));
    expect(events).toEqual([
      { type: "delta", content: "Hel" },
      { type: "delta", content: "lo" },
      { type: "complete", full_response: "Hello" },
    ]);
  });

  it("accepts CRLF line ends, and keeps a partial frame until it is complete", () => {
    const parser = new FrameParser();
    expect(parser.push('data: {"type":"error","content":"No key"}\r\n')).toEqual([]);
    expect(parser.push("\r\n")).toEqual([{ type: "error", content: "No key" }]);
  });

  it("ignores comments, unknown event types and broken JSON", () => {
    const parser = new FrameParser();
    const events = parser.push(': keep-alive\n\ndata: {"type":"surprise"}\n\ndata: {not json\n\ndata: {"type":"run_status","status":"Started","agent_run_id":"R1"}\n\n');
    expect(events).toEqual([{ type: "run_status", status: "Started", agent_run_id: "R1" }]);
  });

  it("flushes a last frame without its blank line", () => {
    const parser = new FrameParser();
    expect(parser.push('data: {"type":"delta","content":"x"}')).toEqual([]);
    expect(parser.flush()).toEqual([{ type: "delta", content: "x" }]);
  });

  it("passes content_block frames with a valid block and drops malformed ones", () => {
    const block = { type: "table", columns: ["A"], rows: [["x"]] };
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: 0, block })}`)).toEqual({ type: "content_block", index: 0, block });
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: -1, block })}`)).toBeNull();
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: 0, block: { type: "video" } })}`)).toBeNull();
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: 1 })}`)).toBeNull();
  });

  it("joins multi-line data fields", () => {
    expect(parseFrame('data: {"type":"delta",\ndata: "content":"a"}')).toEqual({ type: "delta", content: "a" });
  });

  it("passes the approval_required frame that ends a run waiting for an approver, and drops one without its tool", () => {
    const parser = new FrameParser();
    const wait = { type: "approval_required", approval_id: "TA-1", tool_name: "create_todo", agent_run_id: "R1", content: "The run waits for an approver to allow the call of create_todo." };
    const wire = `data: {"type":"run_status","status":"Waiting Approval","agent_run_id":"R1"}\n\ndata: ${JSON.stringify(wait)}\n\n`;
    expect(parser.push(wire)).toEqual([{ type: "run_status", status: "Waiting Approval", agent_run_id: "R1" }, wait]);
    expect(parseFrame(`data: ${JSON.stringify({ ...wait, tool_name: undefined })}`)).toBeNull();
    expect(parseFrame(`data: ${JSON.stringify({ ...wait, agent_run_id: null })}`)).toBeNull();
  });
});
