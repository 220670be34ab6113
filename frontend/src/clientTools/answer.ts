/**
 * Answer a client-side tool call (huf/ai/runtime/client_calls.py): run the browser function it names and post
 * what it returned, or why it failed, to `huf.api.client_tools.answer_client_tool_call`. The server takes the
 * answer only from the run's user and only once; a call this page already answered is skipped (it arrives
 * both on the chat's stream and as a live event).
 */

import { call } from "../lib/api";
import { clientFunctionNames, getClientFunction, type ClientArgs } from "./registry";

export const ANSWER_METHOD = "huf.api.client_tools.answer_client_tool_call";
/** A function that has not finished by then is answered with an error. */
export const FUNCTION_TIMEOUT_MS = 30_000;

/** A call the run waits on (the stream's `client_call` event, the live event `huf_client_tool_call`). */
export interface ClientCall {
  call_id: string;
  tool_name: string;
  function_name: string;
  arguments: ClientArgs;
  agent_run_id: string;
  conversation_id?: string | null;
  expires_at?: string | null;
}

/** The call a message describes, or null when it is not one. */
export function asClientCall(message: unknown): ClientCall | null {
  if (!message || typeof message !== "object") return null;
  const m = message as Record<string, unknown>;
  if (typeof m.call_id !== "string" || typeof m.agent_run_id !== "string" || typeof m.function_name !== "string") return null;
  return {
    call_id: m.call_id,
    tool_name: typeof m.tool_name === "string" ? m.tool_name : m.function_name,
    function_name: m.function_name,
    arguments: m.arguments && typeof m.arguments === "object" ? (m.arguments as ClientArgs) : {},
    agent_run_id: m.agent_run_id,
    conversation_id: typeof m.conversation_id === "string" ? m.conversation_id : null,
    expires_at: typeof m.expires_at === "string" ? m.expires_at : null,
  };
}

const answered = new Set<string>();

/** What the function gave, as the answer's fields: `result` (JSON text) or `error`. */
export async function runClientFunction(c: ClientCall, navigate: (path: string) => void, after: Array<() => void>): Promise<{ result?: string; error?: string }> {
  const fn = getClientFunction(c.function_name);
  if (!fn) return { error: `This page has no browser function ${c.function_name} (it has: ${clientFunctionNames().join(", ")}).` };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${c.function_name} did not finish within ${FUNCTION_TIMEOUT_MS / 1000} seconds`)), FUNCTION_TIMEOUT_MS);
    });
    const value = await Promise.race([Promise.resolve().then(() => fn(c.arguments, { navigate, afterAnswer: (action) => after.push(action) })), timeout]);
    return { result: JSON.stringify(value ?? null) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** Run the call's function once per call and post the answer; "skipped" for a call this page already took. */
export async function answerClientCall(c: ClientCall, navigate: (path: string) => void): Promise<"answered" | "refused" | "skipped"> {
  const key = `${c.agent_run_id}\u0000${c.call_id}`;
  if (answered.has(key)) return "skipped";
  answered.add(key);
  const after: Array<() => void> = [];
  const body = await runClientFunction(c, navigate, after);
  try {
    await call(ANSWER_METHOD, { agent_run_id: c.agent_run_id, call_id: c.call_id, ...body });
  } catch {
    return "refused"; // answered elsewhere, expired, or the run was cancelled: the server's word stands
  }
  after.forEach((action) => action());
  return "answered";
}
