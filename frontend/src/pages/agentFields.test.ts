import { describe, expect, it } from "vitest";
import { NEW_AGENT, NEW_ROWS, newRow, withAgentDefaults } from "./agentFields";

describe("new child rows", () => {
  it("hold the child DocTypes' defaults", () => {
    expect(NEW_ROWS.agent_knowledge).toEqual({ mode: "Optional", priority: 0 });
    expect(NEW_ROWS.agent_mcp_server).toEqual({ enabled: 1 });
    expect(NEW_ROWS.agent_tool).toEqual({ requires_approval: "Inherit" });
  });

  it("name the picked record", () => {
    expect(newRow("agent_knowledge", "knowledge_source", "Handbook")).toEqual({ mode: "Optional", priority: 0, knowledge_source: "Handbook" });
  });
});

describe("withAgentDefaults", () => {
  it("fills the provider and model of a new agent", () => {
    const doc = withAgentDefaults(NEW_AGENT, { provider: "OpenAI", model: "gpt-4o-mini" });
    expect([doc.provider, doc.model]).toEqual(["OpenAI", "gpt-4o-mini"]);
  });

  it("fills the provider alone when there is no default model", () => {
    expect(withAgentDefaults(NEW_AGENT, { provider: "OpenAI", model: "" }).model).toBe("");
  });

  it("keeps a provider the user already chose, and its model", () => {
    const chosen = { ...NEW_AGENT, provider: "Groq", model: "" };
    expect(withAgentDefaults(chosen, { provider: "OpenAI", model: "gpt-4o-mini" })).toBe(chosen);
  });

  it("changes nothing without defaults", () => {
    expect(withAgentDefaults(NEW_AGENT, undefined)).toBe(NEW_AGENT);
    expect(withAgentDefaults(NEW_AGENT, { provider: "", model: "" })).toBe(NEW_AGENT);
  });
});
