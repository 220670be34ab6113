import agentKnowledge from "../../../huf/huf/doctype/agent_knowledge/agent_knowledge.json";
import agentMcpServer from "../../../huf/huf/doctype/agent_mcp_server/agent_mcp_server.json";
import agentTool from "../../../huf/huf/doctype/agent_tool/agent_tool.json";
import { docTypeDefaults } from "../lib/doctypeDefaults";
import { ENABLED_FIELD, type FieldDef } from "../lib/forms";

const isTemplate = (doc: Record<string, unknown>) => doc.prompt_mode === "Template";
const isSummaryTemplate = (doc: Record<string, unknown>) => doc.summary_prompt_mode === "Template";
/** Saved with the agent, edited by the template picker (src/prompts/TemplatePicker.tsx) rather than as a plain field. */
const byTemplatePicker = () => false;

export const AGENT_TABS: Array<{ key: string; label: string; fields: FieldDef[] }> = [
  {
    key: "basics",
    label: "Basics",
    fields: [
      { fieldname: "agent_name", label: "Agent Name", type: "data", required: true },
      { fieldname: "provider", label: "Provider", type: "link", linkTo: "AI Provider", required: true },
      {
        fieldname: "model",
        label: "Model",
        type: "link",
        linkTo: "AI Model",
        required: true,
        linkFilters: (doc) => (doc.provider ? { provider: doc.provider } : undefined),
      },
      { fieldname: "description", label: "Description", type: "text" },
      { fieldname: "temperature", label: "Temperature", type: "float", step: 0.1, help: "0 is focused, 2 is creative." },
      { fieldname: "top_p", label: "Top P", type: "float", step: 0.05, help: "Between 0 and 1." },
      ENABLED_FIELD,
    ],
  },
  {
    key: "instructions",
    label: "Instructions",
    fields: [
      { fieldname: "prompt_mode", label: "Prompt Mode", type: "select", options: ["Local", "Template"], optionLabels: { Local: "Written here", Template: "Shared template" }, help: "Write instructions here, or use a shared prompt template." },
      { fieldname: "agent_prompt", label: "Agent Prompt", type: "link", linkTo: "Agent Prompt", showIf: byTemplatePicker },
      { fieldname: "prompt_version_locked", label: "Keep this version", type: "check", showIf: byTemplatePicker },
      { fieldname: "instructions", label: "Instructions", type: "code", showIf: (doc) => !isTemplate(doc), help: "What the agent should do and how it should answer." },
    ],
  },
  {
    key: "tools",
    label: "Tools and MCP",
    fields: [
      {
        fieldname: "mcp_expose_tools",
        label: "Offer these tools over MCP",
        type: "check",
        help: "People who may run this agent can call its tools one by one from an MCP client, as themselves. Each call is recorded as a run of this agent; approvals apply.",
      },
    ],
  },
  {
    key: "knowledge",
    label: "Knowledge",
    fields: [{ fieldname: "max_knowledge_tokens", label: "Max Knowledge Tokens", type: "int", help: "Budget for knowledge added to each answer." }],
  },
  {
    key: "context",
    label: "Context",
    fields: [
      {
        fieldname: "context_strategy",
        label: "Context Strategy",
        type: "select",
        options: ["Summarize", "FIFO", "None"],
        optionLabels: { Summarize: "Summarize older messages", FIFO: "Drop the oldest messages", None: "Keep everything" },
      },
      { fieldname: "history_limit", label: "History Limit", type: "int", help: "Messages of earlier conversation the agent sees." },
      { fieldname: "max_turns", label: "Max Turns", type: "int", help: "Most tool rounds in one answer." },
      { fieldname: "max_context_chars", label: "Max Context Chars", type: "int" },
      { fieldname: "summary_ratio", label: "Summary Ratio", type: "float", step: 0.05 },
      { fieldname: "summary_model", label: "Summary Model", type: "link", linkTo: "AI Model" },
      { fieldname: "summary_prompt_mode", label: "Summary Prompt Mode", type: "select", options: ["Local", "Template"], optionLabels: { Local: "Written here", Template: "Shared template" } },
      { fieldname: "summary_prompt_template", label: "Summary Prompt Template", type: "link", linkTo: "Agent Summary Prompt", showIf: byTemplatePicker },
      { fieldname: "summary_prompt_version_locked", label: "Keep this summary version", type: "check", showIf: byTemplatePicker },
      { fieldname: "summary_prompt", label: "Summary Prompt", type: "code", showIf: (doc) => !isSummaryTemplate(doc) },
    ],
  },
  {
    key: "advanced",
    label: "Advanced",
    fields: [
      { fieldname: "stt_model", label: "Speech-to-text Model", type: "link", linkTo: "AI Model" },
      { fieldname: "tts_model", label: "Text-to-speech Model", type: "link", linkTo: "AI Model" },
      { fieldname: "tts_voice", label: "Voice", type: "data" },
      { fieldname: "allow_chat", label: "Allow Chat", type: "check", help: "People can chat with this agent." },
      { fieldname: "content_blocks", label: "Content Blocks", type: "check", help: "The agent may answer with tables, charts, KPI cards and status lists." },
      {
        fieldname: "content_block_types",
        label: "Allowed Block Types",
        type: "data",
        help: "table, chart, kpi, status_list, separated by commas (text is always allowed). Empty: all.",
        showIf: (doc) => Boolean(doc.content_blocks),
      },
      { fieldname: "run_immediately", label: "Run Immediately", type: "check", help: "Answer right away instead of waiting in the queue." },
      { fieldname: "enable_prompt_caching", label: "Prompt Caching", type: "check", help: "Reuse the instructions between calls where the model supports it." },
      { fieldname: "persist_conversation", label: "Keep Conversations", type: "check" },
      { fieldname: "persist_user_history", label: "Separate History per Person", type: "check" },
      { fieldname: "autonaming_of_conversation_title", label: "Name Conversations Automatically", type: "check" },
      { fieldname: "enable_conversation_data", label: "Conversation Memory", type: "check", help: "The agent can remember values during a conversation." },
      { fieldname: "inject_conversation_data", label: "Show Memory to the Agent", type: "check", showIf: (doc) => Boolean(doc.enable_conversation_data) },
      { fieldname: "allow_guest", label: "Allow Guests", type: "check", help: "People who are not logged in can use this agent." },
    ],
  },
];

export const AGENT_FIELDS: FieldDef[] = AGENT_TABS.flatMap((t) => t.fields);
export const AGENT_TABLES = ["agent_tool", "agent_mcp_server", "agent_knowledge"];

export const NEW_AGENT: Record<string, unknown> = {
  agent_name: "",
  provider: "",
  model: "",
  description: "",
  temperature: 1,
  top_p: 1,
  disabled: 0,
  prompt_mode: "Local",
  instructions: "",
  max_knowledge_tokens: 4000,
  context_strategy: "Summarize",
  history_limit: 20,
  max_turns: 20,
  max_context_chars: 8000,
  summary_ratio: 0.7,
  summary_prompt_mode: "Local",
  allow_chat: 1,
  content_blocks: 0,
  run_immediately: 0,
  enable_prompt_caching: 0,
  persist_conversation: 1,
  persist_user_history: 1,
  autonaming_of_conversation_title: 1,
  enable_conversation_data: 0,
  inject_conversation_data: 1,
  allow_guest: 0,
  mcp_expose_tools: 0,
  agent_tool: [],
  agent_mcp_server: [],
  agent_knowledge: [],
};

/** A new row of each child table holds its DocType's defaults (read from the DocType JSON), so the record
 * holds what the row's inputs show (Mode "Optional", Priority 0, Enabled...). */
export const NEW_ROWS: Record<string, Record<string, unknown>> = {
  agent_tool: docTypeDefaults(agentTool),
  agent_mcp_server: docTypeDefaults(agentMcpServer),
  agent_knowledge: docTypeDefaults(agentKnowledge),
};

/** The row added to `table` for the picked record (`linkField` = `value`). */
export const newRow = (table: string, linkField: string, value: string): Record<string, unknown> => ({ ...NEW_ROWS[table], [linkField]: value });

/** The provider and model a new agent starts with (huf.api.agents.get_new_agent_defaults). */
export interface AgentDefaults {
  provider: string;
  model: string;
}

/** The new agent with the site's default provider and model, unless a provider was already chosen (the
 * model belongs to its provider, so both are set together). */
export function withAgentDefaults(doc: Record<string, unknown>, defaults: AgentDefaults | undefined): Record<string, unknown> {
  if (!defaults?.provider || doc.provider) return doc;
  return { ...doc, provider: defaults.provider, model: defaults.model || "" };
}
