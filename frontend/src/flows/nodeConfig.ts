/**
 * What a node's settings need, by node type (the keys the executors in huf/ai/flows/nodes read).
 * Each problem names its field, so the config panel marks it as the user types.
 */

import { configValue, isDict, nodeCondition, type Dict } from "./definition";
import { inputProblems } from "./userInput";

export interface FieldProblem {
  field: string;
  message: string;
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
export const TRANSFORM_OPS = ["copy", "map", "template", "concat", "split"] as const;
/** Names of the flow context a transform may not write (huf/ai/flows/nodes/transform.py RESERVED). */
const RESERVED = new Set(["payload", "trigger", "vars", "nodes", "last", "input", "result", "state"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CRON_FIELD = /^[\d*/,\-A-Za-z?LW#]+$/;

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value)).trim();

/** A list of names from a list or a comma/newline separated text (as the approval node reads them). */
export function names(value: unknown): string[] {
  const list = typeof value === "string" ? value.replace(/\n/g, ",").split(",") : Array.isArray(value) ? value : [];
  return list.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
}

/** The approvers of an approval node, synonyms merged: {users, roles}. */
export function approversOf(config: Dict): { users: string[]; roles: string[] } {
  const users: string[] = [];
  const roles: string[] = [];
  const kind = text(config.approval_type).toLowerCase();
  const listed = config.approvers;
  if (isDict(listed)) {
    users.push(...names(listed.users), ...names(listed.user));
    roles.push(...names(listed.roles), ...names(listed.role));
  } else {
    (kind === "role" || kind === "roles" ? roles : users).push(...names(listed));
  }
  users.push(...names(config.users), ...names(config.user));
  roles.push(...names(config.roles), ...names(config.role));
  return { users: [...new Set(users)], roles: [...new Set(roles)] };
}

export function validCron(expression: string): boolean {
  const parts = expression.trim().split(/\s+/);
  return parts.length === 5 && parts.every((p) => CRON_FIELD.test(p));
}

function isUrlOrTemplate(value: string): boolean {
  if (value.includes("{{")) return true;
  if (value.startsWith("/")) return true; // a path under a tool's Base URL
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function transformProblems(config: Dict): FieldProblem[] {
  let operations = configValue(config, "operations", "ops");
  if (typeof operations === "string") {
    try {
      operations = JSON.parse(operations);
    } catch {
      return [{ field: "operations", message: "The operations are not valid JSON." }];
    }
  }
  if (!Array.isArray(operations) || operations.length === 0) {
    return [{ field: "operations", message: "Add at least one operation." }];
  }
  const problems: FieldProblem[] = [];
  operations.forEach((operation, index) => {
    const at = `operations.${index}`;
    const n = index + 1;
    if (!isDict(operation)) {
      problems.push({ field: at, message: `Operation ${n} must be an object with op and to.` });
      return;
    }
    const op = text(operation.op ?? operation.type).toLowerCase();
    if (!(TRANSFORM_OPS as readonly string[]).includes(op)) {
      problems.push({ field: `${at}.op`, message: `Operation ${n}: choose copy, map, template, concat or split.` });
      return;
    }
    const to = text(operation.to);
    if (!to) problems.push({ field: `${at}.to`, message: `Operation ${n}: name the variable it sets.` });
    else if (!IDENTIFIER.test(to) || to.startsWith("__")) {
      problems.push({ field: `${at}.to`, message: `Operation ${n}: ${to} is not a variable name (letters, digits and _).` });
    } else if (RESERVED.has(to)) {
      problems.push({ field: `${at}.to`, message: `Operation ${n}: ${to} is a name of the flow context; choose another.` });
    }
    if (op === "template") {
      if (typeof operation.template !== "string") problems.push({ field: `${at}.template`, message: `Operation ${n}: write the template.` });
    } else if (op === "concat") {
      if (names(operation.from).length === 0) problems.push({ field: `${at}.from`, message: `Operation ${n}: list the values to join.` });
    } else if (!text(operation.from)) {
      problems.push({ field: `${at}.from`, message: `Operation ${n}: say where the value comes from.` });
    }
    if (op === "map" && !text(operation.expression)) {
      problems.push({ field: `${at}.expression`, message: `Operation ${n}: write the expression applied to each item.` });
    }
  });
  return problems;
}

/** What is missing or wrong in the settings of a node of `type`. */
export function configProblems(type: string, config: Dict): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const need = (field: string, message: string, ...keys: string[]) => {
    if (!text(configValue(config, ...(keys.length ? keys : [field])))) problems.push({ field, message });
  };
  switch (type) {
    case "trigger.schedule": {
      const cron = text(configValue(config, "cron", "cron_expression"));
      const at = text(configValue(config, "at"));
      const inMinutes = configValue(config, "in_minutes");
      if (inMinutes !== undefined && inMinutes !== "") {
        if (!Number.isInteger(Number(inMinutes)) || Number(inMinutes) < 1) problems.push({ field: "in_minutes", message: "Give a whole number of minutes, at least 1." });
      } else if (at) {
        if (!/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(at)) problems.push({ field: "at", message: "Give the date and time as YYYY-MM-DD HH:MM." });
      } else if (cron) {
        if (!validCron(cron)) problems.push({ field: "cron", message: "A cron expression has five fields, e.g. 0 9 * * 1-5." });
      } else {
        const minutes = Number(configValue(config, "interval_minutes", "every_minutes"));
        if (!Number.isFinite(minutes) || minutes < 1) {
          problems.push({ field: "interval_minutes", message: "Give a cron expression, or a number of minutes of at least 1." });
        }
      }
      break;
    }
    case "trigger.doc-event":
      need("doctype", "Choose the record type.");
      need("event", "Choose the event.");
      break;
    case "agent.run":
      need("agent", "Choose an agent.");
      if (config.conversation && !["shared", "new"].includes(text(config.conversation).toLowerCase())) {
        problems.push({ field: "conversation", message: "The conversation is shared or new." });
      }
      break;
    case "router.llm":
      need("agent", "Choose the agent whose model decides.");
      break;
    case "tool.call": {
      need("tool", "Choose a tool.", "tool", "tool_name");
      const args = configValue(config, "arguments", "args");
      if (args !== undefined && !isDict(args)) problems.push({ field: "arguments", message: "The arguments must be an object (name: value)." });
      break;
    }
    case "http_request": {
      const url = text(config.url);
      if (!url) problems.push({ field: "url", message: "Give the URL." });
      else if (!isUrlOrTemplate(url)) problems.push({ field: "url", message: "The URL must start with http:// or https://." });
      const method = text(config.method).toUpperCase();
      if (method && !HTTP_METHODS.includes(method)) problems.push({ field: "method", message: `Choose one of ${HTTP_METHODS.join(", ")}.` });
      if (config.headers !== undefined && config.headers !== null && !isDict(config.headers)) {
        problems.push({ field: "headers", message: "The headers must be an object (name: value)." });
      }
      const timeout = config.timeout;
      if (timeout !== undefined && timeout !== null && timeout !== "" && !(Number(timeout) > 0 && Number(timeout) <= 120)) {
        problems.push({ field: "timeout", message: "The timeout is a number of seconds from 1 to 120." });
      }
      break;
    }
    case "human.approval": {
      const { users, roles } = approversOf(config);
      if (!users.length && !roles.length) problems.push({ field: "approvers", message: "Add at least one approver (a user or a role)." });
      const timeout = config.timeout_minutes;
      if (timeout !== undefined && timeout !== null && timeout !== "" && !(Number(timeout) > 0)) {
        problems.push({ field: "timeout_minutes", message: "The timeout is a number of minutes above 0." });
      }
      break;
    }
    case "human.input":
      problems.push(...inputProblems(config));
      break;
    case "condition":
      if (!text(nodeCondition({ data: config }))) problems.push({ field: "condition", message: "Write the condition." });
      break;
    case "transform":
      problems.push(...transformProblems(config));
      break;
    case "loop":
      need("items", "Say which list to go through.", "items", "items_expression", "from");
      break;
  }
  return problems;
}
