import { describe, expect, it } from "vitest";
import { NAV } from "./Layout";
import { pageTitle } from "./pageTitle";

describe("page titles", () => {
  it("names the page of the route, then the app", () => {
    expect(pageTitle("/huf")).toBe("Dashboard · Huf");
    expect(pageTitle("/huf/")).toBe("Dashboard · Huf");
    expect(pageTitle("/huf/agents")).toBe("Agents · Huf");
    expect(pageTitle("/huf/agents/new")).toBe("New agent · Huf");
    expect(pageTitle("/huf/agents/Support%20Bot")).toBe("Agent · Huf");
    expect(pageTitle("/huf/chat/Support/abc123")).toBe("Chat · Huf");
    expect(pageTitle("/huf/summary-prompts")).toBe("Summary prompts · Huf");
    expect(pageTitle("/huf/executions/RUN-1")).toBe("Run · Huf");
    expect(pageTitle("/huf/flows/refunds")).toBe("Flow editor · Huf");
    expect(pageTitle("/huf/flow-runs")).toBe("Flow runs · Huf");
    expect(pageTitle("/huf/flow-runs/abc123")).toBe("Flow run · Huf");
    expect(pageTitle("/huf/data/orders/schema")).toBe("Data · Huf");
    expect(pageTitle("/mcp")).toBe("MCP servers · Huf");
  });

  it("calls unknown pages not found, without being fooled by a prefix", () => {
    expect(pageTitle("/huf/nowhere")).toBe("Page not found · Huf");
    expect(pageTitle("/hufx/agents")).toBe("Page not found · Huf");
    expect(pageTitle("/huf/constructor")).toBe("Page not found · Huf");
  });

  it("titles every navigation entry's page with the entry's label", () => {
    for (const item of NAV) expect(pageTitle(`/huf${item.to}`)).toBe(`${item.label} · Huf`);
  });
});
