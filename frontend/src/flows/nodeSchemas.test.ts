import { describe, expect, it } from "vitest";
import type { NodeSetting } from "./flowApi";
import { schemaProblems, settingApplies, withDefaults } from "./nodeSchemas";

const setting = (name: string, extra: Partial<NodeSetting> = {}): NodeSetting => ({ name, label: name, type: "string", description: "", ...extra });

const FILE: NodeSetting[] = [
  setting("operation", { type: "select", required: true, options: ["read", "write"], default: "read" }),
  setting("file", { required: true, depends_on: { operation: ["read"] } }),
  setting("file_name", { required: true, depends_on: { operation: ["write"] } }),
];

describe("node schemas", () => {
  it("shows a setting only while the setting it depends on has one of its values (defaults count)", () => {
    expect(FILE.filter((s) => settingApplies(s, withDefaults(FILE, {}))).map((s) => s.name)).toEqual(["operation", "file"]);
    expect(FILE.filter((s) => settingApplies(s, withDefaults(FILE, { operation: "write" }))).map((s) => s.name)).toEqual(["operation", "file_name"]);
  });

  it("marks the required settings that apply and are empty; a default fills one", () => {
    expect([...schemaProblems(FILE, {}).keys()]).toEqual(["file"]);
    expect([...schemaProblems(FILE, { operation: "write", file_name: " " }).keys()]).toEqual(["file_name"]);
    expect(schemaProblems(FILE, { operation: "write", file_name: "a.txt" }).size).toBe(0);
  });
});
