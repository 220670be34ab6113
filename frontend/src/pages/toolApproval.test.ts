import { afterEach, describe, expect, it } from "vitest";
import { setFetch } from "../lib/api";
import { actingWithoutApproval, asksApproval, getToolApprovals } from "./toolApproval";

describe("asksApproval", () => {
  it("follows the agent's row first", () => {
    expect(asksApproval("Always", false)).toBe(true);
    expect(asksApproval("Never", true)).toBe(false);
  });

  it("inherits the tool's own setting", () => {
    expect(asksApproval("Inherit", true)).toBe(true);
    expect(asksApproval("Inherit", false)).toBe(false);
    expect(asksApproval(undefined, false)).toBe(false);
  });

  it("does not know while the tool's setting is unknown", () => {
    expect(asksApproval("Inherit", undefined)).toBeUndefined();
  });
});

describe("actingWithoutApproval", () => {
  const rows = [
    { tool: "delete_order", requires_approval: "Inherit" },
    { tool: "list_orders", requires_approval: "Inherit" },
    { tool: "post_webhook", requires_approval: "Never" },
    { tool: "send_mail", requires_approval: "Always" },
    { tool: "secret_tool", requires_approval: "Inherit" },
  ];

  it("names the tools that act without approval, in row order", () => {
    const approvals = { delete_order: true, list_orders: false, post_webhook: true, send_mail: false };
    expect(actingWithoutApproval(rows, approvals)).toEqual(["list_orders", "post_webhook"]);
  });

  it("names none when every tool asks", () => {
    const asking = rows.filter((row) => ["delete_order", "send_mail"].includes(row.tool));
    expect(actingWithoutApproval(asking, { delete_order: true, send_mail: false })).toEqual([]);
  });
});

describe("getToolApprovals", () => {
  afterEach(() => setFetch((input, init) => fetch(input, init)));

  it("asks for the named tools only, and reads their settings", async () => {
    let url = "";
    setFetch(async (input) => {
      url = String(input);
      const data = [
        { name: "a", requires_approval: 1 },
        { name: "b", requires_approval: 0 },
      ];
      return new Response(JSON.stringify({ data }), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    expect(await getToolApprovals(["a", "b"])).toEqual({ a: true, b: false });
    const params = new URL(url, "http://site").searchParams;
    expect(JSON.parse(params.get("filters") ?? "")).toEqual([["name", "in", ["a", "b"]]]);
    expect(JSON.parse(params.get("fields") ?? "")).toEqual(["name", "requires_approval"]);
  });

  it("asks nothing for an agent without tools", async () => {
    setFetch(async () => {
      throw new Error("no request expected");
    });
    expect(await getToolApprovals([])).toEqual({});
  });
});
