/**
 * The chat's side of client-side tool calls: calls of runs in the open conversation that arrive as live
 * events (a run resumed in the background may call again) are answered here; `onStreamEvent` answers the
 * `client_call` of the chat's own stream. Either way each call is answered once (./answer.ts).
 */

import { useNavigate } from "react-router-dom";
import { useHufEvents } from "../lib/hufEvents";
import type { StreamEvent } from "../lib/stream";
import { answerClientCall, asClientCall } from "./answer";

export function useClientToolCalls(conversation: string | undefined): (event: StreamEvent) => void {
  const navigate = useNavigate();
  useHufEvents("client", ({ message }) => {
    const c = asClientCall(message);
    if (c && conversation && c.conversation_id === conversation) void answerClientCall(c, navigate);
  });
  return (event) => {
    const c = event.type === "client_call" ? asClientCall(event) : null;
    if (c) void answerClientCall(c, navigate);
  };
}
