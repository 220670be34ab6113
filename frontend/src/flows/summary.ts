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
    case "condition": {
      const c = nodeCondition({ data: config });
      return c === undefined ? "" : clip(String(c));
    }
    case "transform": {
      const ops = configValue(config, "operations", "ops");
      return Array.isArray(ops) ? `${ops.length} ${ops.length === 1 ? "operation" : "operations"}` : "";
    }
    case "loop":
      return clip(value("items", "items_expression", "from"));
    case "end":
      return clip(value("output"));
    default:
      return "";
  }
}
