/** The server calls of the chat: conversations (list, new, delete), a voice message transcribed, a rating
 * of an answer (huf.ai.agent_chat, the spec's chat module; huf.api.feedback), and their query keys. */
import { call } from "../lib/api";

const CHAT = "huf.ai.agent_chat";
const FEEDBACK = "huf.api.feedback";

/** A row of `huf.api.conversations.list_conversations`. */
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

/** Every list of an agent's conversations: invalidating it refreshes every search. */
export const agentConversationsKey = (agent: string | undefined) => ["conversations", agent];

/** The list's query key: under agentConversationsKey, so that invalidating that refreshes every search. */
export const conversationsKey = (agent: string | undefined, search: string, automated: boolean) => [...agentConversationsKey(agent), search, automated];

/** The messages of a conversation. */
export const historyKey = (conversation: string | undefined) => ["history", conversation];

export const listConversations = (agent: string, search: string, automated: boolean): Promise<ConversationRow[]> =>
  call<ConversationRow[]>("huf.api.conversations.list_conversations", { agent, search, automated: automated ? 1 : 0 }, "GET");

export const deleteConversation = (conversation: string): Promise<{ deleted: string }> =>
  call<{ deleted: string }>("huf.api.conversations.delete_conversation", { conversation });

/** A new conversation with `agent`, without running it. */
export const createConversation = (agent: string): Promise<{ conversation_id: string }> =>
  call<{ conversation_id: string }>(`${CHAT}.create_conversation`, { agent });

export interface Transcribed {
  transcript?: string;
  file_url?: string;
  language?: string;
}

/** The text of a recorded voice message (base64), transcribed by the server; the agent does not run. */
export const transcribeRecording = (args: { filename: string; b64data: string; agent: string; conversation?: string }): Promise<Transcribed> =>
  call<Transcribed>(`${CHAT}.upload_audio_and_transcribe_web`, { ...args, conversation: args.conversation ?? null, transcribe_only: 1 });

/** Thumbs up or down on an agent answer (rating again replaces it). */
export const rateMessage = (message: string, feedback: string) => call<unknown>(`${FEEDBACK}.rate_message`, { agent_message: message, feedback });
