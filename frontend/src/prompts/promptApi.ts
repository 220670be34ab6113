/** The prompt library's server calls: templates and versions (Agent Prompt / Agent Summary Prompt) and the agents using them. */

import { call, insertDoc } from "../lib/api";

export type PromptKind = "prompt" | "summary";

export interface KindConfig {
  kind: PromptKind;
  doctype: string;
  categoryDoctype: string;
  title: string;
  description: string;
  path: string;
  /** The agent fields that attach a template of this kind. */
  agentMode: string;
  agentLink: string;
  agentLock: string;
  methods: { newVersion: string; fork: string; history: string; attach: string; detach: string; saveAsTemplate: string };
}

const API = "huf.ai.prompt_api";
const LIBRARY = "huf.api.prompts";

export const KINDS: Record<PromptKind, KindConfig> = {
  prompt: {
    kind: "prompt",
    doctype: "Agent Prompt",
    categoryDoctype: "Agent Prompt Category",
    title: "Prompts",
    description: "Shared instructions for agents, with every version kept.",
    path: "/prompts",
    agentMode: "prompt_mode",
    agentLink: "agent_prompt",
    agentLock: "prompt_version_locked",
    methods: {
      newVersion: `${API}.create_new_version`,
      fork: `${API}.fork_prompt`,
      history: `${API}.get_version_history`,
      attach: `${API}.attach_template`,
      detach: `${API}.detach_from_template`,
      saveAsTemplate: `${API}.save_as_template`,
    },
  },
  summary: {
    kind: "summary",
    doctype: "Agent Summary Prompt",
    categoryDoctype: "Agent Summary Prompt Category",
    title: "Summary prompts",
    description: "Shared instructions for summarizing older messages of a conversation, with every version kept.",
    path: "/summary-prompts",
    agentMode: "summary_prompt_mode",
    agentLink: "summary_prompt_template",
    agentLock: "summary_prompt_version_locked",
    methods: {
      newVersion: `${API}.create_new_summary_version`,
      fork: `${API}.fork_summary_prompt`,
      history: `${API}.get_summary_version_history`,
      attach: `${API}.attach_summary_template`,
      detach: `${API}.detach_from_summary_template`,
      saveAsTemplate: `${API}.save_as_summary_template`,
    },
  },
};

export const VISIBILITIES = ["Public", "App", "Private"] as const;

export interface PromptVersion {
  name: string;
  title: string;
  slug?: string;
  category?: string | null;
  description?: string | null;
  visibility?: string;
  is_active?: number;
  is_system?: number;
  prompt_body?: string;
  version: number;
  is_latest?: number;
  lineage?: string;
  previous_version?: string | null;
  owner?: string;
  creation?: string;
  modified?: string;
}

/** The query keys of the prompt library's answers (invalidating a shorter key refreshes every key under it). */
export const promptKeys = {
  all: ["prompts"],
  list: (kind: string) => ["prompts", kind],
  histories: (kind: string) => ["prompt-history", kind],
  history: (kind: string, name: string | null | undefined) => ["prompt-history", kind, name],
  usedBy: (kind: string, name: string | null | undefined) => ["prompt-used-by", kind, name],
};

/** The latest version of every template the user may see (Private ones only to their owner), newest change first. */
export function listTemplates(config: KindConfig): Promise<PromptVersion[]> {
  return call<PromptVersion[]>(`${LIBRARY}.list_prompts`, { kind: config.kind }, "GET");
}

/** Every version of the template `name` belongs to, newest first, with their bodies. */
export function versionHistory(config: KindConfig, name: string): Promise<PromptVersion[]> {
  return call<PromptVersion[]>(config.methods.history, { prompt_name: name }, "GET").then((rows) =>
    [...rows].sort((a, b) => b.version - a.version),
  );
}

export interface AgentUse {
  agent: string;
  agent_name?: string | null;
  /** The version the agent is attached to. */
  prompt: string;
  version_at_attach?: number | null;
  locked: boolean | number;
}

/** The agents (the user may read) attached to any version of the template `name` belongs to. */
export function agentsUsing(config: KindConfig, name: string): Promise<AgentUse[]> {
  return call<AgentUse[]>(`${LIBRARY}.used_by`, { prompt_name: name, kind: config.kind }, "GET");
}

/** The name of the record a call answered with (a name, or a record with one). */
export function nameOf(result: unknown): string {
  if (typeof result === "string") return result;
  if (result && typeof result === "object" && "name" in result) return String((result as { name: unknown }).name);
  throw new Error("The server did not say which prompt it saved.");
}

export interface TemplateFields {
  title: string;
  category: string;
  visibility: string;
  description: string;
  prompt_body: string;
}

export function createTemplate(config: KindConfig, fields: TemplateFields): Promise<PromptVersion> {
  return insertDoc<PromptVersion>(config.doctype, { ...fields, category: fields.category || null, is_active: 1 });
}

export async function createVersion(config: KindConfig, from: string, fields: TemplateFields): Promise<string> {
  return nameOf(
    await call(config.methods.newVersion, { prompt_name: from, prompt_body: fields.prompt_body, title: fields.title, description: fields.description }),
  );
}

export async function forkTemplate(config: KindConfig, from: string, title: string): Promise<string> {
  return nameOf(await call(config.methods.fork, { prompt_name: from, title }));
}

export async function saveAgentAsTemplate(
  config: KindConfig,
  agent: string,
  fields: Pick<TemplateFields, "title" | "category" | "visibility" | "description">,
): Promise<string> {
  const result = await call<{ prompt: PromptVersion }>(config.methods.saveAsTemplate, { agent_name: agent, ...fields });
  return nameOf(result.prompt);
}

export function detachAgent(config: KindConfig, agent: string): Promise<unknown> {
  return call(config.methods.detach, { agent_name: agent });
}
