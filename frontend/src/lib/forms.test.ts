import { describe, expect, it } from "vitest";
import { ENABLED_FIELD, buildPayload, cleanRow, coerce, fieldsInMessage, isDirty, missingRequired, switchOn, switchValue, type FieldDef } from "./forms";

const FIELDS: FieldDef[] = [
  { fieldname: "agent_name", label: "Agent Name", type: "data" },
  { fieldname: "temperature", label: "Temperature", type: "float" },
  { fieldname: "top_p", label: "Top P", type: "float" },
  { fieldname: "max_turns", label: "Max Turns", type: "int" },
  { fieldname: "allow_chat", label: "Allow Chat", type: "check" },
  { fieldname: "api_key", label: "API Key", type: "password" },
];

describe("fieldsInMessage", () => {
  it("finds the fields a server message names, by label", () => {
    expect(fieldsInMessage("Temperature must be between 0 and 2.", FIELDS)).toEqual(["temperature"]);
    expect(fieldsInMessage("Top P must be between 0 and 1.", FIELDS)).toEqual(["top_p"]);
    expect(fieldsInMessage("Max Turns must be at least 1.", FIELDS)).toEqual(["max_turns"]);
    expect(fieldsInMessage("Something else went wrong.", FIELDS)).toEqual([]);
  });
});

describe("buildPayload", () => {
  it("coerces numbers and checks, and sends a password only when one was typed", () => {
    const doc = { agent_name: "A", temperature: "0.5", top_p: "", max_turns: "3.7", allow_chat: true, api_key: "" };
    expect(buildPayload(doc, FIELDS)).toEqual({ agent_name: "A", temperature: 0.5, top_p: 0, max_turns: 3, allow_chat: 1 });
    expect(buildPayload({ ...doc, api_key: "sk-new" }, FIELDS).api_key).toBe("sk-new");
    expect(buildPayload({ ...doc, api_key: "*****" }, FIELDS)).not.toHaveProperty("api_key");
  });

  it("keeps child rows' names but drops the server's bookkeeping", () => {
    const doc = { agent_tool: [{ name: "r1", tool: "t", parent: "A", parenttype: "Agent", idx: 1, doctype: "Agent Tool", modified: "x" }] };
    expect(buildPayload(doc, [], ["agent_tool"])).toEqual({ agent_tool: [{ name: "r1", tool: "t" }] });
    expect(cleanRow({ __islocal: 1, a: 1 })).toEqual({ a: 1 });
  });

  it("coerce keeps text as text", () => {
    expect(coerce(undefined, "data")).toBe("");
    expect(coerce(0, "check")).toBe(0);
  });
});

describe("missingRequired", () => {
  const fields: FieldDef[] = [
    { fieldname: "tool_name", label: "Tool Name", type: "data", required: true },
    { fieldname: "types", label: "Kind", type: "select", required: true },
    { fieldname: "url", label: "URL", type: "data", required: true, showIf: (d) => d.types === "GET" },
    { fieldname: "fixed", label: "Fixed", type: "data", required: true, readOnly: true },
    { fieldname: "max_turns", label: "Max Turns", type: "int", required: true },
  ];

  it("names the empty required fields shown for these values, in form order", () => {
    expect(missingRequired({ tool_name: "  ", types: "GET", max_turns: 0 }, fields)).toEqual([
      { fieldname: "tool_name", message: "Tool Name is required." },
      { fieldname: "url", message: "URL is required." },
    ]);
    expect(missingRequired({ tool_name: "x", types: "POST", max_turns: 3 }, fields)).toEqual([]);
  });
});

describe("isDirty", () => {
  it("compares only what would be sent", () => {
    const saved = { agent_name: "A", temperature: 0.5, modified: "t1" };
    expect(isDirty({ ...saved, modified: "t2" }, saved, FIELDS)).toBe(false);
    expect(isDirty({ ...saved, temperature: "0.5" }, saved, FIELDS)).toBe(false);
    expect(isDirty({ ...saved, temperature: "0.7" }, saved, FIELDS)).toBe(true);
    expect(isDirty({ ...saved, agent_tool: [{ tool: "t" }] }, { ...saved, agent_tool: [] }, FIELDS, ["agent_tool"])).toBe(true);
  });
});

describe("inverted switches", () => {
  it("shows a disabled check as an Enabled switch", () => {
    expect(ENABLED_FIELD.label).toBe("Enabled");
    expect(switchOn(ENABLED_FIELD, 0)).toBe(true);
    expect(switchOn(ENABLED_FIELD, 1)).toBe(false);
    expect(switchValue(ENABLED_FIELD, false)).toBe(1);
    expect(switchValue(ENABLED_FIELD, true)).toBe(0);
    const plain: FieldDef = { fieldname: "allow_chat", label: "Allow Chat", type: "check" };
    expect([switchOn(plain, 1), switchValue(plain, true)]).toEqual([true, 1]);
  });
});
