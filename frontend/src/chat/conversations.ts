/** The chat's conversation list: what started an automated conversation, in words (the server calls are in
 * chatApi.ts). */

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
