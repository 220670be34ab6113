import { describe, expect, it } from "vitest";
import { conversationsKey } from "./chatApi";
import { channelLabel } from "./conversations";

describe("channelLabel", () => {
  it("names what started a conversation", () => {
    expect(channelLabel("flow")).toBe("Flow");
    expect(channelLabel("trigger")).toBe("Trigger");
    expect(channelLabel("agent")).toBe("Agent call");
    expect(channelLabel("slack")).toBe("Slack");
    expect(channelLabel("")).toBe("Chat");
    expect(channelLabel(null)).toBe("Chat");
  });
  it("keys every search under the agent's list", () => {
    expect(conversationsKey("Bot", "milk", true).slice(0, 2)).toEqual(["conversations", "Bot"]);
  });
});
