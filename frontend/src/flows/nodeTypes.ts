/** The node types of a flow (huf/huf/flow_schema.py NODE_TYPES), as the canvas presents them. */

import type { Dict } from "./definition";

export type NodeGroup = "triggers" | "actions" | "utilities" | "end";

/** A way out of a node; `id` is the React Flow handle id (null: the node's one output). */
export interface OutputHandle {
  id: string | null;
  label?: string;
}

export interface NodeTypeInfo {
  type: string;
  label: string;
  group: NodeGroup;
  description: string;
  /** Whether edges may lead into the node (a trigger starts the run: none). */
  inputs: boolean;
  outputs: OutputHandle[];
  /** The settings a new node starts with. */
  defaults: Dict;
}

const ONE: OutputHandle[] = [{ id: null }];

export const NODE_TYPES: NodeTypeInfo[] = [
  { type: "trigger.webhook", label: "Webhook", group: "triggers", description: "Starts when an app posts to the flow's webhook URL.", inputs: false, outputs: ONE, defaults: {} },
  { type: "trigger.schedule", label: "Schedule", group: "triggers", description: "Starts on a schedule (cron, every N minutes, or once).", inputs: false, outputs: ONE, defaults: { interval_minutes: 60 } },
  { type: "trigger.doc-event", label: "Document event", group: "triggers", description: "Starts when a record is created, saved, submitted…", inputs: false, outputs: ONE, defaults: { doctype: "", event: "after_insert" } },
  { type: "trigger.app-event", label: "App event", group: "triggers", description: "Starts when an app fires an event (huf.fire_app_event).", inputs: false, outputs: ONE, defaults: { app: "", event: "" } },
  { type: "agent.run", label: "Run agent", group: "actions", description: "An agent answers a prompt built from the flow's data.", inputs: true, outputs: ONE, defaults: { agent: "", prompt: "", conversation: "shared" } },
  { type: "tool.call", label: "Call tool", group: "actions", description: "Runs one tool with fixed arguments, without a model.", inputs: true, outputs: ONE, defaults: { tool: "", arguments: {} } },
  { type: "http_request", label: "HTTP request", group: "actions", description: "Calls a web service.", inputs: true, outputs: ONE, defaults: { method: "GET", url: "" } },
  { type: "human.approval", label: "Approval", group: "actions", description: "Waits until a person approves or rejects.", inputs: true, outputs: [{ id: "approved", label: "Approved" }, { id: "rejected", label: "Rejected" }, { id: "timeout", label: "Timed out" }], defaults: { approvers: { users: [], roles: [] }, message: "" } },
  { type: "human.input", label: "Wait for input", group: "actions", description: "Waits until a person fills in a form.", inputs: true, outputs: ONE, defaults: { title: "", fields: [{ label: "", fieldname: "", fieldtype: "Data", required: 0 }], assignees: { users: [], roles: [] } } },
  { type: "router.llm", label: "AI router", group: "actions", description: "An agent's model picks the next step.", inputs: true, outputs: ONE, defaults: { agent: "", instructions: "" } },
  { type: "condition", label: "Condition", group: "utilities", description: "Goes on by the success or failure path.", inputs: true, outputs: ONE, defaults: { condition: "" } },
  { type: "transform", label: "Transform", group: "utilities", description: "Sets flow variables (copy, map, template, concat, split).", inputs: true, outputs: ONE, defaults: { operations: [{ op: "copy", to: "", from: "" }] } },
  { type: "loop", label: "Loop", group: "utilities", description: "Runs its body once per item of a list.", inputs: true, outputs: [{ id: "body", label: "Each item" }, { id: "done", label: "Done" }], defaults: { items: "" } },
  { type: "code", label: "Code", group: "actions", description: "Computes a value with safe expressions (or Python, for System Managers).", inputs: true, outputs: ONE, defaults: { language: "expression", code: "" } },
  { type: "email", label: "Email", group: "utilities", description: "Queues an email filled from the flow's data.", inputs: true, outputs: ONE, defaults: { recipients: "", subject: "", message: "" } },
  { type: "file", label: "File", group: "utilities", description: "Reads, writes or deletes a text file.", inputs: true, outputs: ONE, defaults: { operation: "write", file_name: "", content: "" } },
  { type: "date", label: "Date", group: "utilities", description: "Formats dates, moves them, or measures between two.", inputs: true, outputs: ONE, defaults: { operation: "format", value: "", format: "dd-MM-yyyy" } },
  { type: "end", label: "End", group: "end", description: "The flow ends here with success.", inputs: true, outputs: [], defaults: {} },
];

export const GROUPS: Array<{ id: NodeGroup; label: string }> = [
  { id: "triggers", label: "Triggers" },
  { id: "actions", label: "Actions" },
  { id: "utilities", label: "Utilities" },
  { id: "end", label: "End" },
];

const BY_TYPE = new Map(NODE_TYPES.map((info) => [info.type, info]));

export function nodeTypeInfo(type: string | undefined): NodeTypeInfo | undefined {
  return type ? BY_TYPE.get(type) : undefined;
}

export const isTrigger = (type: string | undefined): boolean => nodeTypeInfo(type)?.group === "triggers";

/** A fresh copy of a type's default settings (never shared between nodes). */
export function defaultData(type: string): Dict {
  return structuredClone(nodeTypeInfo(type)?.defaults ?? {});
}
