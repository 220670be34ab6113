import type { ToolCall } from "../components/messages";
import type { StreamEvent } from "./stream";

/** The answer being streamed in the chat, updated event by event. */

export interface LiveTurn {
  conversation: string;
  prompt: string;
  attachment?: string;
  text: string;
  tools: ToolCall[];
  state: "streaming" | "done" | "failed" | "stopped";
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
    case "complete":
      return { ...turn, text: event.full_response || turn.text, state: "done", runId: event.agent_run_id ?? turn.runId, usage: event.usage, cost: event.cost };
    case "error":
      return { ...turn, state: "failed", error: event.content, runId: event.agent_run_id ?? turn.runId };
    case "run_status":
      return { ...turn, runId: event.agent_run_id ?? turn.runId };
  }
}

