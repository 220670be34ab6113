import { useState } from "react";
import { WrenchIcon } from "./icons";
import { ToolValue } from "./ToolValue";
import { cx } from "./ui";

/** Messages of a conversation as shown in chat and run details; tool calls shown inline. */

export interface Message {
  name: string;
  role: string;
  kind: string | null;
  content: string | null;
  attachment: string | null;
  creation: string;
  status: string | null;
  agent_run: string | null;
  tool_name: string | null;
  tool_call_id: string | null;
  tool_status: string | null;
  /** JSON list of the calls of a "Tool Call" message (OpenAI format). */
  tool_calls?: unknown;
  conversation_index?: number;
  /** JSON list of the answer's content blocks, when the agent answered with blocks. */
  content_blocks?: unknown;
}

export const MESSAGE_FIELDS = [
  "name", "role", "kind", "content", "attachment", "creation", "status", "agent_run",
  "tool_name", "tool_call_id", "tool_status", "tool_calls", "conversation_index", "content_blocks",
];

interface RawCall {
  id?: string;
  name?: string;
  arguments?: unknown;
  function?: { name?: string; arguments?: unknown };
}

/** The calls of a "Tool Call" message: [{id, name, args}]. */
export function parseToolCalls(value: unknown): Array<{ id: string; name: string; args: unknown }> {
  let list: unknown = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return (list as RawCall[]).map((c, i) => ({
    id: c.id ?? String(i),
    name: c.function?.name ?? c.name ?? "tool",
    args: c.function?.arguments ?? c.arguments ?? {},
  }));
}

export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
  result?: string;
  status: string;
}

export function ToolCallRow({ call: tool }: { call: ToolCall }) {
  // the arguments and result are drawn once the row is opened (a long thread has many)
  const [open, setOpen] = useState(false);
  return (
    <details
      data-testid="tool-call-row"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="my-2 rounded-md border border-slate-200 bg-slate-50 text-sm dark:border-slate-700 dark:bg-slate-800/50"
    >
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-2">
        <WrenchIcon />
        <span className="font-medium" data-testid="tool-call-name">
          {tool.name}
        </span>
        <span
          data-testid="tool-call-status"
          className={cx(
            "ml-auto rounded-full px-2 text-xs",
            tool.status === "Success" || tool.status === "Completed"
              ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300"
              : tool.status === "Failed"
                ? "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300"
                : "bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-300",
          )}
        >
          {tool.status === "Running" ? "Running…" : tool.status}
        </span>
      </summary>
      {open && (
        <div className="space-y-2 border-t border-slate-200 px-3 py-2 dark:border-slate-700">
          <div>
            <p className="text-xs font-medium text-slate-600 dark:text-slate-400">Arguments</p>
            <ToolValue value={tool.args} label={`Arguments of ${tool.name}`} testid="tool-call-args" />
          </div>
          {tool.result !== undefined && (
            <div>
              <p className="text-xs font-medium text-slate-600 dark:text-slate-400">Result</p>
              <ToolValue value={tool.result} label={`Result of ${tool.name}`} testid="tool-call-result" />
            </div>
          )}
        </div>
      )}
    </details>
  );
}

/** History rows in display order, tool calls merged with their results. */
export type Item = { kind: "user"; m: Message } | { kind: "agent"; m: Message } | { kind: "tool"; call: ToolCall; key: string };

export function toItems(messages: Message[]): Item[] {
  const items: Item[] = [];
  const byId = new Map<string, ToolCall>();
  const entry = (id: string, key: string, name?: string): ToolCall => {
    let found = byId.get(id);
    if (!found) {
      found = { id, name: name || "tool", args: {}, status: "Running" };
      byId.set(id, found);
      items.push({ kind: "tool", call: found, key });
    }
    if (name && found.name === "tool") found.name = name;
    return found;
  };
  for (const m of messages) {
    if (m.kind === "Tool Call") {
      const calls = parseToolCalls(m.tool_calls);
      if (m.content?.trim()) items.push({ kind: "agent", m: { ...m, kind: "Message" } });
      if (!calls.length && m.tool_call_id) entry(m.tool_call_id, m.name, m.tool_name ?? undefined);
      for (const call of calls) entry(call.id, `${m.name}:${call.id}`, call.name).args = call.args;
    } else if (m.kind === "Tool Result" || m.role === "tool") {
      const found = entry(m.tool_call_id || m.name, m.name, m.tool_name ?? undefined);
      found.result = m.content ?? "";
      const status = m.tool_status || m.status || "Success";
      found.status = status === "Completed" ? "Success" : status;
    } else if (m.role === "user") items.push({ kind: "user", m });
    else if (m.role === "agent" && (m.kind === "Message" || !m.kind || m.kind === "Error")) items.push({ kind: "agent", m });
  }
  return items;
}
