/** The server calls of the agent editor beside the Agent record itself (huf.api.agents). */
import { call } from "../lib/api";
import type { AgentDefaults } from "./agentFields";

const API = "huf.api.agents";

export const NEW_AGENT_DEFAULTS_KEY = ["new-agent-defaults"];

/** The provider and model a new agent starts with (Settings' defaults, else the only ones there are). */
export const getNewAgentDefaults = () => call<AgentDefaults>(`${API}.get_new_agent_defaults`, {}, "GET");
