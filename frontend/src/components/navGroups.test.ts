import { afterEach, describe, expect, it } from "vitest";
import { NAV, NAV_GROUPS, navSections } from "./Layout";

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("the navigation's groups", () => {
  it("puts every entry but Dashboard under Build, Run, Data or Admin", () => {
    expect(NAV.filter((item) => !item.group).map((item) => item.label)).toEqual(["Dashboard"]);
    const under = (group: string) => NAV.filter((item) => item.group === group).map((item) => item.label);
    expect(NAV_GROUPS).toEqual(["Build", "Run", "Data", "Admin"]);
    expect(under("Build")).toEqual(["Agents", "Prompts", "Tools", "MCP servers", "Flows", "Triggers"]);
    expect(under("Run")).toEqual(["Chat", "Executions", "Approvals"]);
    expect(under("Data")).toEqual(["Knowledge", "Data"]);
    expect(under("Admin")).toEqual(["Providers", "Models", "Integrations", "Budgets", "Settings", "Users", "Roles"]);
  });

  it("leaves out a group none of whose entries the user may open", () => {
    const sections = navSections((item) => ["/", "/agents", "/chat"].includes(item.to));
    expect(sections.map((s) => [s.group ?? "", s.items.map((i) => i.label)])).toEqual([
      ["", ["Dashboard"]],
      ["Build", ["Agents"]],
      ["Run", ["Chat"]],
    ]);
  });
});
