/** One line that says what a step does, from its settings (shown on the canvas). */

import { configValue, nodeCondition, type Dict } from "./definition";
import { approversOf } from "./nodeConfig";

const clip = (text: string, size = 40): string => (text.length > size ? `${text.slice(0, size - 1)}…` : text);

export function summary(type: string, config: Dict): string {
  const value = (...keys: string[]) => {
    const v = configValue(config, ...keys);
    return v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
  };
  switch (type) {
    case "trigger.schedule":
      if (value("at")) return `once at ${value("at").slice(0, 16)}`;
      if (value("in_minutes")) return `once in ${value("in_minutes")} min`;
      return value("cron", "cron_expression") ? `cron ${value("cron", "cron_expression")}` : value("interval_minutes", "every_minutes") ? `every ${value("interval_minutes", "every_minutes")} min` : "";
    case "trigger.doc-event":
      return [value("doctype"), value("event")].filter(Boolean).join(" · ");
    case "agent.run":
    case "router.llm":
      return value("agent");
    case "tool.call":
      return value("tool", "tool_name");
    case "http_request":
      return clip(`${value("method") || "GET"} ${value("url")}`.trim());
    case "human.approval": {
      const { users, roles } = approversOf(config);
      return clip([...users, ...roles].join(", "));
    }
    case "human.input":
      return clip(value("title"));
    case "condition": {
      const c = nodeCondition({ data: config });
      return c === undefined ? "" : clip(String(c));
    }
    case "transform": {
      const ops = configValue(config, "operations", "ops");
      return Array.isArray(ops) ? `${ops.length} ${ops.length === 1 ? "operation" : "operations"}` : "";
    }
    case "trigger.app-event":
      return [value("app"), value("event")].filter(Boolean).join(" · ");
    case "code":
      return clip(value("code").split("\n").filter((line) => line.trim() && !line.trim().startsWith("#")).pop() ?? "");
    case "email":
      return clip([value("recipients"), value("subject")].filter(Boolean).join(": "));
    case "file":
      return clip([value("operation"), value("file_name", "file")].filter(Boolean).join(" "));
    case "date":
      return clip([value("operation") || "now", value("value")].filter(Boolean).join(" "));
    case "loop":
      return clip(value("items", "items_expression", "from"));
    case "end":
      return clip(value("output"));
    default:
      return "";
  }
}
