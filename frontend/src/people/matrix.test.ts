import { describe, expect, it } from "vitest";
import { areaLabel, areaOf, differs, groupByArea, lockReason, toggle } from "./matrix";

const catalogue = [
  { capability: "agent.view", label: "See agents" },
  { capability: "agent.create", label: "Create agents" },
  { capability: "system.providers.manage", label: "Manage AI providers" },
  { capability: "users.invite", label: "Invite users" },
  { capability: "system.models.manage", label: "Manage AI models" },
];

describe("the capability matrix", () => {
  it("groups the catalogue by area in catalogue order", () => {
    const areas = groupByArea(catalogue);
    expect(areas.map((a) => a.label)).toEqual(["Agents", "System", "Users"]);
    expect(areas[1]?.capabilities.map((c) => c.capability)).toEqual(["system.providers.manage", "system.models.manage"]);
    expect(areaOf("data.records.view_all")).toBe("data");
    expect(areaLabel("billing")).toBe("Billing");
  });

  it("toggles a capability and keeps catalogue order", () => {
    expect(toggle(["users.invite"], "agent.view", true, catalogue)).toEqual(["agent.view", "users.invite"]);
    expect(toggle(["agent.view", "users.invite"], "agent.view", false, catalogue)).toEqual(["users.invite"]);
    expect(toggle(["agent.view"], "agent.view", true, catalogue)).toEqual(["agent.view"]);
  });

  it("tells a changed set from the same set in another order", () => {
    expect(differs(["a", "b"], ["b", "a"])).toBe(false);
    expect(differs(["a"], ["a", "b"])).toBe(true);
    expect(differs(["a", "c"], ["a", "b"])).toBe(true);
  });

  it("locks a capability the editor does not hold, naming it", () => {
    expect(lockReason("agent.view", ["agent.view"])).toBeNull();
    expect(lockReason("roles.manage", ["agent.view"])).toContain("roles.manage");
  });
});
