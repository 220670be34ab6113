import { describe, expect, it } from "vitest";
import { approversOf, configProblems, names, validCron } from "./nodeConfig";
import { NODE_TYPES, defaultData } from "./nodeTypes";

const fields = (type: string, config: Record<string, unknown>) => configProblems(type, config).map((p) => p.field);

describe("configProblems", () => {
  it("asks for what each node type needs", () => {
    expect(fields("agent.run", {})).toEqual(["agent"]);
    expect(fields("agent.run", { agent: "Helper", conversation: "forever" })).toEqual(["conversation"]);
    expect(fields("router.llm", { agent: "" })).toEqual(["agent"]);
    expect(fields("tool.call", { tool_name: "get_weather" })).toEqual([]);
    expect(fields("tool.call", { tool: "get_weather", arguments: [1] })).toEqual(["arguments"]);
    expect(fields("condition", {})).toEqual(["condition"]);
    expect(fields("condition", { expression: "payload.ok" })).toEqual([]);
    expect(fields("loop", { from: "payload.rows" })).toEqual([]);
    expect(fields("loop", {})).toEqual(["items"]);
    expect(fields("end", {})).toEqual([]);
    expect(fields("trigger.webhook", {})).toEqual([]);
    expect(fields("trigger.doc-event", { doctype: "ToDo" })).toEqual(["event"]);
  });

  it("checks schedules: a five-field cron, or minutes of at least 1", () => {
    expect(fields("trigger.schedule", { cron: "0 9 * * 1-5" })).toEqual([]);
    expect(fields("trigger.schedule", { cron: "0 9 * *" })).toEqual(["cron"]);
    expect(fields("trigger.schedule", { interval_minutes: 0 })).toEqual(["interval_minutes"]);
    expect(fields("trigger.schedule", { every_minutes: "15" })).toEqual([]);
    expect(validCron("*/5 * * * *")).toBe(true);
    expect(validCron("every day")).toBe(false);
  });

  it("checks HTTP requests: URL, method, headers, timeout", () => {
    expect(fields("http_request", { url: "https://api.example.com/x", method: "POST" })).toEqual([]);
    expect(fields("http_request", { url: "{{ payload.callback }}" })).toEqual([]);
    expect(fields("http_request", { url: "/v1/orders", tool: "Shop API" })).toEqual([]);
    expect(fields("http_request", { url: "ftp://x", method: "FETCH", headers: "a", timeout: 500 })).toEqual(["url", "method", "headers", "timeout"]);
    expect(fields("http_request", {})).toEqual(["url"]);
  });

  it("reads approvers like the server: users and roles, synonyms merged", () => {
    expect(approversOf({ approvers: { users: ["a@x.com"], role: "Huf Manager" }, user: "b@x.com" })).toEqual({
      users: ["a@x.com", "b@x.com"],
      roles: ["Huf Manager"],
    });
    expect(approversOf({ approvers: ["Huf Manager"], approval_type: "roles" })).toEqual({ users: [], roles: ["Huf Manager"] });
    expect(approversOf({ approvers: "a@x.com, b@x.com\nc@x.com", approval_type: "user" }).users).toEqual(["a@x.com", "b@x.com", "c@x.com"]);
    expect(fields("human.approval", { approvers: { users: [], roles: [] } })).toEqual(["approvers"]);
    expect(fields("human.approval", { roles: ["Huf Manager"], timeout_minutes: -3 })).toEqual(["timeout_minutes"]);
    expect(names([" a ", "", 3, "b"])).toEqual(["a", "b"]);
  });

  it("checks each transform operation and names it", () => {
    const ops = [
      { op: "copy", to: "total", from: "payload.amount" },
      { op: "map", to: "ids", from: "payload.rows" },
      { op: "template", to: "payload" },
      { op: "concat", to: "all", from: [] },
      { op: "explode", to: "x" },
      { op: "split", to: "9lives", from: "payload.tags" },
    ];
    expect(configProblems("transform", { operations: ops })).toEqual([
      { field: "operations.1.expression", message: "Operation 2: write the expression applied to each item." },
      { field: "operations.2.to", message: "Operation 3: payload is a name of the flow context; choose another." },
      { field: "operations.2.template", message: "Operation 3: write the template." },
      { field: "operations.3.from", message: "Operation 4: list the values to join." },
      { field: "operations.4.op", message: "Operation 5: choose copy, map, template, concat or split." },
      { field: "operations.5.to", message: "Operation 6: 9lives is not a variable name (letters, digits and _)." },
    ]);
    expect(fields("transform", { operations: [] })).toEqual(["operations"]);
    expect(fields("transform", { operations: "[{" })).toEqual(["operations"]);
  });

  it("gives every node type fresh defaults", () => {
    for (const info of NODE_TYPES) {
      const a = defaultData(info.type);
      expect(a).toEqual(info.defaults);
      expect(a === info.defaults && Object.keys(a).length > 0).toBe(false);
    }
  });
});
