/** The streaming client for agent answers: POST /huf/stream/<agent>, frames `id: <n>` + `data: {json}` + blank line; a broken connection is read on with Last-Event-ID. */

import { ApiError, call, parseServerMessages } from "./api";
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
  | { type: "approval_required"; approval_id: string; tool_name: string; agent_run_id: string; content: string }
  /** The run stopped for the browser to run `function_name` (a Client Side tool: ../clientTools), after `run_status` Waiting Approval. */
  | {
      type: "client_call";
      call_id: string;
      tool_name: string;
      function_name: string;
      arguments: Record<string, unknown>;
      agent_run_id: string;
      conversation_id: string;
      expires_at: string;
      content: string;
    };

const KNOWN = new Set(["run_status", "delta", "tool_call", "tool_result", "content_block", "complete", "error", "approval_required", "client_call"]);

/** An event with the `id` of its frame: its number in the run (null for a frame without one). */
export interface NumberedEvent {
  id: number | null;
  event: StreamEvent;
}

/** Incremental parser: feed text chunks, get whole events back (partial frames wait for more text). */
export class FrameParser {
  private buffer = "";

  push(chunk: string): StreamEvent[] {
    return this.pushNumbered(chunk).map((frame) => frame.event);
  }

  /** `push`, with the `id` of each event's frame. */
  pushNumbered(chunk: string): NumberedEvent[] {
    this.buffer += chunk.replace(/\r\n/g, "\n");
    const events: NumberedEvent[] = [];
    let end = this.buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = parseFrame(block);
      if (event) events.push({ id: frameId(block), event });
      end = this.buffer.indexOf("\n\n");
    }
    return events;
  }

  /** Whatever complete frame is left when the stream ends without a final blank line. */
  flush(): StreamEvent[] {
    return this.flushNumbered().map((frame) => frame.event);
  }

  flushNumbered(): NumberedEvent[] {
    const rest = this.buffer;
    this.buffer = "";
    const event = rest.trim() ? parseFrame(rest) : null;
    return event ? [{ id: frameId(rest), event }] : [];
  }
}

/** The `id:` field of a frame as a number, or null. */
export function frameId(block: string): number | null {
  const line = block.split("\n").reverse().find((l) => l.startsWith("id:"));
  const id = line ? Number(line.slice(3).trim()) : NaN;
  return Number.isInteger(id) && id >= 0 ? id : null;
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
  if (type === "client_call") {
    const frame = value as { call_id?: unknown; function_name?: unknown; agent_run_id?: unknown };
    if (typeof frame.call_id !== "string" || typeof frame.function_name !== "string" || typeof frame.agent_run_id !== "string") return null;
  }
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
/** What a turn says when the connection broke and could not be restored (the run may still finish: see the history). */
export const CONNECTION_LOST = "The connection to the server was lost while the answer came in. Reload to see it once it is done.";

/** Events after which the server closes a run's stream: the run ended or waits (an approver, the browser). */
const FINAL = new Set(["complete", "error", "approval_required", "client_call"]);
/** Waits (ms) before each attempt to read a run on after its connection broke; reset whenever events arrive. */
export const RECONNECT_DELAYS = [250, 500, 1000, 2000, 4000, 8000];

/** What a stream has delivered so far: the last event id, the run, and whether a final event came. */
interface Seen {
  lastId: number;
  runId?: string;
  ended: boolean;
  /** Stop was asked for: nothing more is delivered, and the run is cancelled once it is known. */
  stopping?: boolean;
  cancelling?: boolean;
}

/**
 * Start a run and call `onEvent` for each event as it arrives; resolves when the stream ends.
 *
 * A connection that breaks before the run's final event is opened again: `GET /huf/stream/<agent>?run=<id>`
 * with `Last-Event-ID` (the number of the last event received) reads the run on, and an event already
 * delivered is never delivered again. The server keeps running a run whose client went away, so aborting
 * `signal` (Stop) also cancels the run (`cancel_agent_run`).
 */
export async function streamAgent(args: StreamArgs): Promise<void> {
  const body: Record<string, unknown> = { prompt: args.prompt, channel_id: args.channelId ?? "chat" };
  if (args.conversationId) body.conversation_id = args.conversationId;
  if (args.attachments?.length) body.attachments = args.attachments;
  const seen: Seen = { lastId: 0, ended: false };
  const route = `/huf/stream/${encodeURIComponent(args.agent)}`;
  if (args.signal?.aborted) throw stoppedError();
  // the requests end through `own`: on Stop they go on until the run is known, so that it can be cancelled
  const own = new AbortController();
  // the turn ends once the cancel is recorded: what the page reads from then on shows the run Cancelled
  const cancelThenEnd = (runId: string) => {
    seen.cancelling = true;
    void cancelRun(runId).finally(() => own.abort());
  };
  const stop = () => {
    seen.stopping = true;
    if (seen.runId) cancelThenEnd(seen.runId);
    // the run's first event names it; a busy server may take seconds, and giving up early would leave the
    // run going without its client: only a stream that names no run within STOP_WAIT_MS is let go
    else setTimeout(() => own.abort(), STOP_WAIT_MS);
  };
  args.signal?.addEventListener("abort", stop, { once: true });
  const onEvent = (event: StreamEvent) => {
    // after Stop only what names the run (`run_status`) still reaches the caller
    if (!seen.stopping || event.type === "run_status") args.onEvent(event);
    if (seen.stopping && seen.runId && !seen.cancelling) cancelThenEnd(seen.runId); // stopped before the run was known
  };
  try {
    await follow(route, body, seen, own.signal, onEvent);
    if (seen.stopping) throw stoppedError(); // it ended before the stop took effect: still a stopped turn
  } catch (e) {
    if (seen.stopping) throw stoppedError();
    throw e;
  } finally {
    args.signal?.removeEventListener("abort", stop);
  }
}

const STOP_WAIT_MS = 60000;

function stoppedError(): DOMException {
  return new DOMException("The stream was stopped.", "AbortError");
}

/** POST the run, then read it to its end, reading it on after each broken connection. */
async function follow(route: string, body: Record<string, unknown>, seen: Seen, signal: AbortSignal, onEvent: (event: StreamEvent) => void): Promise<void> {
  let response: Response;
  try {
    response = await fetch(route, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "text/event-stream",
        "X-Frappe-CSRF-Token": getBoot().csrf_token || "",
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new Error(UNREACHABLE);
  }
  if (!response.ok || !response.body) throw await refusal(response, "The agent could not be started.");
  let current: Response | null = response;
  let attempt = 0;
  for (;;) {
    const before = seen.lastId;
    let closed = false; // the server closed the stream (else the connection broke, or could not be made)
    if (current) {
      try {
        await readEvents(current, seen, onEvent);
        closed = true;
      } catch (e) {
        if (signal.aborted || !(e instanceof ConnectionBroken)) throw e; // stopped, or e.g. a failing onEvent
      }
    }
    if (seen.ended) return;
    if (!seen.runId) {
      if (closed) return; // the turn shows what came
      throw new Error(CONNECTION_LOST); // broke before the run was known: nothing to read on
    }
    if (closed && attempt > 0 && seen.lastId === before) return; // read on and nothing more came: over
    if (seen.lastId > before) attempt = 0;
    if (attempt >= RECONNECT_DELAYS.length) throw new Error(CONNECTION_LOST);
    await wait(RECONNECT_DELAYS[attempt++] ?? 1000, signal);
    current = await resume(route, seen, signal);
  }
}

/** Read `response`'s frames, delivering each event not delivered before (by its id). */
async function readEvents(response: Response, seen: Seen, onEvent: (event: StreamEvent) => void): Promise<void> {
  if (!response.body) return;
  const deliver = (frames: NumberedEvent[]) => {
    for (const { id, event } of frames) {
      if (id !== null) {
        if (id <= seen.lastId) continue; // already delivered before the connection broke
        seen.lastId = id;
      }
      const runId = (event as { agent_run_id?: unknown }).agent_run_id;
      if (!seen.runId && typeof runId === "string" && runId) seen.runId = runId;
      if (FINAL.has(event.type)) seen.ended = true;
      onEvent(event);
    }
  };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new FrameParser();
  for (;;) {
    let chunk: ReadableStreamReadResult<string>;
    try {
      chunk = await reader.read();
    } catch (e) {
      throw new ConnectionBroken(e);
    }
    if (chunk.done) break;
    deliver(parser.pushNumbered(chunk.value));
  }
  deliver(parser.flushNumbered());
}

/** The connection of a stream broke while it was read. */
class ConnectionBroken extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** The run's stream from the event after the last one received; null when the server cannot be reached. */
async function resume(route: string, seen: Seen, signal: AbortSignal): Promise<Response | null> {
  let response: Response;
  try {
    response = await fetch(`${route}?run=${encodeURIComponent(seen.runId ?? "")}`, {
      method: "GET",
      credentials: "same-origin",
      headers: { Accept: "text/event-stream", "Last-Event-ID": String(seen.lastId) },
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw e;
    return null; // no connection yet: try again
  }
  if (response.status === 204) return new Response(""); // the client has every event: nothing more
  if (response.status >= 500) return null; // a server restarting: try again
  if (!response.ok || !response.body) throw await refusal(response, CONNECTION_LOST);
  return response;
}

async function refusal(response: Response, fallback: string): Promise<ApiError> {
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  const messages = parseServerMessages(data);
  return new ApiError(messages[0] ?? fallback, response.status, "", messages);
}

/** Stop: the server runs on without its client, so the run is cancelled explicitly (a refusal changes nothing). */
async function cancelRun(runId: string): Promise<void> {
  await call("huf.api.runs.cancel_agent_run", { run_id: runId }).catch(() => undefined);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(stoppedError());
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(stoppedError());
      },
      { once: true },
    );
  });
}
