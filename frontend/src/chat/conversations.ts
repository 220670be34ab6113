/** The chat's conversation list: the caller's own conversations, searched, with the automated ones marked. */

import { call } from "../lib/api";

/** A row of `huf.ai.agent_chat.list_conversations`. */
export interface ConversationRow {
  name: string;
  title: string | null;
  /** Who started it: "chat" (a person; older rows: empty), else an automation (flow, trigger, agent, a channel). */
  channel: string | null;
  last_activity: string | null;
  creation: string;
  automated: boolean;
  /** The text around the search in the newest message that holds it (when the search matched a message). */
  match?: string;
}

const CHANNELS: Record<string, string> = {
  flow: "Flow",
  trigger: "Trigger",
  agent: "Agent call",
  elevenlabs: "Voice call",
};

/** What started an automated conversation, in words: "flow" -> "Flow", "slack" -> "Slack". */
export function channelLabel(channel: string | null | undefined): string {
  const key = (channel ?? "").trim();
  if (!key) return "Chat";
  return CHANNELS[key.toLowerCase()] ?? key.charAt(0).toUpperCase() + key.slice(1);
}

/** The list's query key: under ["conversations", agent], so that invalidating that refreshes every search. */
export const conversationsKey = (agent: string | undefined, search: string, automated: boolean) => ["conversations", agent, search, automated];

export const listConversations = (agent: string, search: string, automated: boolean): Promise<ConversationRow[]> =>
  call<ConversationRow[]>("huf.ai.agent_chat.list_conversations", { agent, search, automated: automated ? 1 : 0 }, "GET");

export const deleteConversation = (conversation: string): Promise<{ deleted: string }> =>
  call<{ deleted: string }>("huf.ai.agent_chat.delete_conversation", { conversation });
