/** The streaming client for agent answers: POST /huf/stream/<agent>, frames `data: {json}` + blank line. */

import { ApiError, parseServerMessages } from "./api";
import { isBlock, type ContentBlock } from "./blocks";
import { getBoot } from "./boot";

export type RunStatus = "Queued" | "Started" | "Waiting Approval" | "Success" | "Failed" | "Cancelled";

export type StreamEvent =
  | { type: "run_status"; status: RunStatus; agent_run_id?: string }
  | { type: "delta"; content: string }
  | { type: "tool_call"; tool_call_id: string; name: string; arguments: Record<string, unknown> }
  | { type: "tool_result"; tool_call_id: string; name: string; content: string; status: "Success" | "Failed" }
  /** One content block of the answer, at `index` (from 0): sent after the answer's text, before the run ends. */
  | { type: "content_block"; index: number; block: ContentBlock }
  | {
      type: "complete";
      full_response: string;
      agent_run_id?: string;
      conversation_id?: string;
      session_id?: string;
      usage?: Record<string, number>;
      cost?: number;
    }
  | { type: "error"; content: string; agent_run_id?: string }
  /** The run stopped before a call of `tool_name` to wait for an approver (after `run_status` Waiting Approval). */
  | { type: "approval_required"; approval_id: string; tool_name: string; agent_run_id: string; content: string };

const KNOWN = new Set(["run_status", "delta", "tool_call", "tool_result", "content_block", "complete", "error", "approval_required"]);

/** Incremental parser: feed text chunks, get whole events back (partial frames wait for more text). */
export class FrameParser {
  private buffer = "";

  push(chunk: string): StreamEvent[] {
    this.buffer += chunk.replace(/\r\n/g, "\n");
    const events: StreamEvent[] = [];
    let end = this.buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = parseFrame(block);
      if (event) events.push(event);
      end = this.buffer.indexOf("\n\n");
    }
    return events;
  }

  /** Whatever complete frame is left when the stream ends without a final blank line. */
  flush(): StreamEvent[] {
    const rest = this.buffer;
    this.buffer = "";
    const event = rest.trim() ? parseFrame(rest) : null;
    return event ? [event] : [];
  }
}

/** One frame: its `data:` lines joined; comments (`:`) and other fields are ignored. */
export function parseFrame(block: string): StreamEvent | null {
  const data = block
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""));
  if (!data.length) return null;
  let value: unknown;
  try {
    value = JSON.parse(data.join("\n"));
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !KNOWN.has(type)) return null;
  if (type === "approval_required") {
    const frame = value as { tool_name?: unknown; agent_run_id?: unknown };
    if (typeof frame.tool_name !== "string" || typeof frame.agent_run_id !== "string") return null;
  }
  if (type === "content_block") {
    const frame = value as { index?: unknown; block?: unknown };
    if (!Number.isInteger(frame.index) || (frame.index as number) < 0 || !isBlock(frame.block)) return null;
  }
  return value as StreamEvent;
}

export interface StreamArgs {
  agent: string;
  prompt: string;
  conversationId?: string;
  channelId?: string;
  /** File URLs uploaded for this message. */
  attachments?: string[];
  signal?: AbortSignal;
  onEvent: (event: StreamEvent) => void;
}

/** What a message that never reached the server (no network, server down) says. */
export const UNREACHABLE = "The message did not reach the server. Check the connection and try again.";

/** Start a run and call `onEvent` for each event as it arrives; resolves when the stream ends. */
export async function streamAgent(args: StreamArgs): Promise<void> {
  const body: Record<string, unknown> = { prompt: args.prompt, channel_id: args.channelId ?? "chat" };
  if (args.conversationId) body.conversation_id = args.conversationId;
  if (args.attachments?.length) body.attachments = args.attachments;
  let response: Response;
  try {
    response = await fetch(`/huf/stream/${encodeURIComponent(args.agent)}`, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "text/event-stream",
        "X-Frappe-CSRF-Token": getBoot().csrf_token || "",
      },
      body: JSON.stringify(body),
      signal: args.signal,
    });
  } catch (e) {
    if (args.signal?.aborted) throw e;
    throw new Error(UNREACHABLE);
  }
  if (!response.ok || !response.body) {
    let data: unknown = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    const messages = parseServerMessages(data);
    throw new ApiError(messages[0] ?? "The agent could not be started.", response.status, "", messages);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new FrameParser();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const event of parser.push(value)) args.onEvent(event);
  }
  for (const event of parser.flush()) args.onEvent(event);
}
