import type { Item, ToolCall } from "../components/messages";
import { hasEnded, markWaiting, type ApprovalWait } from "./approvalWait";
import { withBlock, type ContentBlock } from "./blocks";
import { fileName, withoutFileList } from "./files";
import type { StreamEvent } from "./stream";

/** The answer being streamed in the chat, updated event by event. */

export interface LiveTurn {
  /** This page's own key for the turn. */
  id: string;
  conversation: string;
  /** History items shown when it was sent: a turn the server did not store stays at that place in the thread. */
  after?: number;
  prompt: string;
  attachment?: string;
  text: string;
  /** The answer's content blocks, as they arrive (`content_block` events). */
  blocks?: ContentBlock[];
  tools: ToolCall[];
  /** `waiting`: the run stopped to wait for an approver's decision on a tool call (`approval`).
   * `queued`: the stream ended before the run could start (it waits behind an earlier run of the
   * conversation) and the run goes on in the background (`note` says why). */
  state: "streaming" | "done" | "failed" | "stopped" | "waiting" | "queued";
  note?: string;
  approval?: ApprovalWait;
  error?: string;
  runId?: string;
  usage?: Record<string, number>;
  cost?: number;
}

/** Apply one streamed event to the turn being shown. */
export function applyEvent(turn: LiveTurn, event: StreamEvent): LiveTurn {
  switch (event.type) {
    case "delta":
      return { ...turn, text: turn.text + event.content };
    case "tool_call":
      return { ...turn, tools: [...turn.tools, { id: event.tool_call_id, name: event.name, args: event.arguments, status: "Running" }] };
    case "tool_result":
      return {
        ...turn,
        tools: turn.tools.some((t) => t.id === event.tool_call_id)
          ? turn.tools.map((t) => (t.id === event.tool_call_id ? { ...t, result: event.content, status: event.status } : t))
          : [...turn.tools, { id: event.tool_call_id, name: event.name, args: {}, result: event.content, status: event.status }],
      };
    case "content_block":
      return { ...turn, blocks: withBlock(turn.blocks, event.index, event.block) };
    case "complete":
      return { ...turn, text: event.full_response || turn.text, state: "done", runId: event.agent_run_id ?? turn.runId, usage: event.usage, cost: event.cost };
    case "error":
      return { ...turn, state: "failed", error: event.content, runId: event.agent_run_id ?? turn.runId };
    case "run_status":
      return { ...turn, runId: event.agent_run_id ?? turn.runId };
    case "approval_required":
      return {
        ...turn,
        state: "waiting",
        runId: event.agent_run_id || turn.runId,
        approval: { runId: event.agent_run_id, status: "Waiting Approval", tool: event.tool_name, approvalId: event.approval_id, message: event.content },
        tools: markWaiting(turn.tools, event.tool_name),
      };
    case "client_call":
      return {
        ...turn,
        state: "waiting",
        runId: event.agent_run_id || turn.runId,
        approval: { runId: event.agent_run_id, status: "Waiting Approval", tool: event.tool_name, message: event.content, client: true },
      };
  }
}

/**
 * What a streaming turn is doing while no answer text shows: waiting for the model (the request is out,
 * nothing has come back from the model yet), running a tool, or thinking over the tools' results.
 * Null once text arrives (the text itself shows) or when the turn is over.
 */
export function turnActivity(turn: LiveTurn): string | null {
  if (turn.state !== "streaming") return null;
  const running = turn.tools.find((t) => t.status === "Running");
  if (running) return `Running ${running.name}…`;
  if (turn.text) return null;
  if (turn.tools.length) return "Thinking…";
  return "Waiting for the model…";
}

/** A turn that ended: its final state when the stream closed without a complete or error event. */
export function endTurn(turn: LiveTurn): LiveTurn {
  if (turn.state !== "streaming") return turn;
  return turn.text ? { ...turn, state: "done" } : { ...turn, state: "failed", error: "The answer ended unexpectedly." };
}

/** Whether the stored history already shows this turn (the server stored its messages under its run). */
export function storedIn(turn: LiveTurn, runs: Array<string | null | undefined>): boolean {
  return Boolean(turn.runId) && runs.includes(turn.runId);
}

export type ThreadEntry<T> = { kind: "item"; item: T; index: number } | { kind: "turn"; turn: LiveTurn };

/** Stored items with the page's own turns (those the server did not store) back at the place they were sent. */
export function interleave<T>(items: T[], turns: LiveTurn[]): Array<ThreadEntry<T>> {
  const out: Array<ThreadEntry<T>> = [];
  const at = (position: number) => turns.filter((t) => Math.min(t.after ?? items.length, items.length) === position).forEach((turn) => out.push({ kind: "turn", turn }));
  items.forEach((item, index) => {
    at(index);
    out.push({ kind: "item", item, index });
  });
  at(items.length);
  return out;
}

/** What to send again for the stored answer at `index` (an Error): the user message it answered. */
export function retryOf(items: Item[], index: number): { prompt: string; attachment?: string } | null {
  for (let i = index - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind !== "user") continue;
    const attachment = item.m.attachment || undefined;
    const prompt = attachment ? withoutFileList(item.m.content ?? "", [fileName(attachment)]) : (item.m.content ?? "");
    return prompt.trim() ? { prompt, attachment } : null;
  }
  return null;
}

/**
 * A failed turn whose run has not ended (`status`: what `get_agent_run_status` says now) did not fail: the
 * stream ended while the run waits behind an earlier run of the conversation, and it runs in the background.
 * Such a turn becomes `queued` (nothing to retry: a retry would send the message twice).
 */
export function queuedIfStillRunning(turn: LiveTurn, status: string | null | undefined): LiveTurn {
  if (turn.state !== "failed" || !turn.runId || !status || hasEnded(status)) return turn;
  return { ...turn, state: "queued", note: turn.error, error: undefined };
}
