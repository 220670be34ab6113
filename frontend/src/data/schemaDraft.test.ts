import { describe, expect, it } from "vitest";
import type { TableSchema } from "./dataApi";
import { createArgs, draftChanged, draftFromSchema, emptyDraft, emptyField, fieldnameFromLabel, moveItem, pendingChanges, removedFields, updateArgs, updateField, validateDraft, type SchemaDraft } from "./schemaDraft";

const draftWith = (...labels: string[]): SchemaDraft => {
  const draft = { ...emptyDraft(), table_name: "Leads" };
  for (const label of labels) draft.fields.push(updateField(emptyField(draft.fields), { label }));
  return draft;
};

const saved: TableSchema = {
  name: "abc123",
  table_name: "Leads",
  doctype_name: "HF Leads",
  description: "People",
  icon: null,
  autoname_method: "Autoincrement",
  naming_field: null,
  naming_series: null,
  title_field: "full_name",
  fields: [
    { fieldname: "full_name", label: "Full Name", fieldtype: "Data", reqd: 1 },
    { fieldname: "stage", label: "Stage", fieldtype: "Select", options: "New\nWon" },
    { fieldname: "notes", label: "Notes", fieldtype: "Text" },
  ],
  record_count: 4,
  can: { manage: true, create: true, view_all: true, edit_all: true, edit_own: true },
};

describe("fieldnameFromLabel", () => {
  it("makes lowercase names of letters, digits and underscores", () => {
    expect(fieldnameFromLabel("Full Name")).toBe("full_name");
    expect(fieldnameFromLabel("  E-mail (work)! ")).toBe("e_mail_work");
    expect(fieldnameFromLabel("2nd Phone")).toBe("field_2nd_phone");
  });
});

describe("updateField", () => {
  it("renames the fieldname with the label until the user types one", () => {
    let f = updateField(emptyField(), { label: "Company Name" });
    expect(f.fieldname).toBe("company_name");
    f = updateField(f, { fieldname: "org" });
    f = updateField(f, { label: "Organisation" });
    expect(f.fieldname).toBe("org");
  });
  it("drops options when the type no longer takes them", () => {
    const f = updateField(updateField(emptyField(), { fieldtype: "Select", options: "A\nB" }), { fieldtype: "Int" });
    expect(f.options).toBe("");
  });
  it("drops a default the new type cannot hold and keeps one it can", () => {
    const stage = updateField(emptyField(), { fieldtype: "Select", options: "New\n5", default: "New" });
    expect(updateField(stage, { fieldtype: "Int" }).default).toBe("");
    expect(updateField({ ...stage, default: "5" }, { fieldtype: "Int" }).default).toBe("5");
    expect(updateField({ ...stage, default: "5" }, { fieldtype: "Check" }).default).toBe("");
    expect(updateField(stage, { fieldtype: "Data" }).default).toBe("New");
  });
});

describe("validateDraft", () => {
  it("wants a table name and a field", () => {
    expect(validateDraft(emptyDraft(), true)).toEqual({ table_name: "Give the table a name.", fields: "Add at least one field." });
    expect(validateDraft({ ...draftWith("A"), table_name: "9 lives" }, true).table_name).toMatch(/starting with a letter/);
  });
  it("refuses reserved and duplicate fieldnames and Select without choices", () => {
    const draft = draftWith("Name", "Email", "Email", "Stage");
    const [a, , c, d] = draft.fields;
    draft.fields[3] = updateField(d!, { fieldtype: "Select" });
    const errors = validateDraft(draft, true);
    expect(errors[a!.key]).toMatch(/"name" is taken/);
    expect(errors[c!.key]).toMatch(/already the fieldname of Email/);
    expect(errors[d!.key]).toBe("List the choices, one a line.");
    expect(Object.keys(errors)).toHaveLength(3);
  });
  it("checks defaults against the type", () => {
    const draft = draftWith("Qty", "Stage");
    draft.fields[0] = updateField(draft.fields[0]!, { fieldtype: "Int", default: "2.5" });
    draft.fields[1] = updateField(draft.fields[1]!, { fieldtype: "Select", options: "New\nWon", default: "Lost" });
    const errors = validateDraft(draft, true);
    expect(errors[draft.fields[0]!.key]).toBe("The default must be a whole number.");
    expect(errors[draft.fields[1]!.key]).toBe("The default must be one of the choices.");
  });
  it("needs a required unique naming field and a series pattern", () => {
    const draft = { ...draftWith("Code"), autoname_method: "Field" as const, naming_field: "code" };
    expect(validateDraft(draft, true).naming_field).toBe("The naming field must be required and unique.");
    draft.fields[0] = updateField(draft.fields[0]!, { reqd: true, unique: true });
    expect(validateDraft(draft, true)).toEqual({});
    expect(validateDraft({ ...draft, autoname_method: "Naming Series", naming_series: "LEAD" }, true).naming_series).toMatch(/LEAD-.#####/);
    expect(validateDraft({ ...draft, autoname_method: "Naming Series", naming_series: "LEAD-.##" }, true)).toHaveProperty("naming_series");
    expect(validateDraft({ ...draft, autoname_method: "Naming Series", naming_series: "LEAD-.#####" }, true)).toEqual({});
  });
});

describe("createArgs and updateArgs", () => {
  it("sends the fields in display order with 0/1 flags and only the options of their type", () => {
    const draft = draftWith("Full Name", "Stage");
    draft.fields[1] = updateField(draft.fields[1]!, { fieldtype: "Select", options: " New \n\nWon\n", search: true });
    draft.fields = moveItem(draft.fields, 1, 0);
    draft.title_field = "full_name";
    expect(createArgs(draft)).toEqual({
      table_name: "Leads",
      autoname_method: "Autoincrement",
      description: "",
      icon: "",
      title_field: "full_name",
      fields: [
        { fieldname: "stage", label: "Stage", fieldtype: "Select", options: "New\nWon", reqd: 0, unique: 0, in_list_view: 1, in_standard_filter: 0, search: 1 },
        { fieldname: "full_name", label: "Full Name", fieldtype: "Data", reqd: 0, unique: 0, in_list_view: 1, in_standard_filter: 0, search: 0 },
      ],
    });
  });
  it("names the saved fieldname of a renamed field", () => {
    const draft = draftFromSchema(saved);
    draft.fields[0] = updateField(draft.fields[0]!, { fieldname: "name_of_person" });
    draft.title_field = "name_of_person";
    const args = updateArgs(draft);
    expect(args.fields[0]).toMatchObject({ fieldname: "name_of_person", original_fieldname: "full_name", reqd: 1 });
    expect(args.fields[1]).toMatchObject({ fieldname: "stage", original_fieldname: "stage", options: "New\nWon" });
    expect(args).not.toHaveProperty("table_name");
    expect(args).not.toHaveProperty("autoname_method");
  });
});

describe("pendingChanges", () => {
  it("lists removed and renamed fields", () => {
    const draft = draftFromSchema(saved);
    draft.fields = draft.fields.filter((f) => f.fieldname !== "notes");
    draft.fields[0] = updateField(draft.fields[0]!, { fieldname: "person" });
    expect(pendingChanges(draft, saved)).toEqual([
      'The field "Notes" and its values will be removed.',
      'The field "Full Name" is renamed from full_name to person; its values are kept.',
    ]);
    expect(pendingChanges(draftFromSchema(saved), saved)).toEqual([]);
  });
});

describe("moveItem", () => {
  it("moves within bounds and ignores moves out of them", () => {
    expect(moveItem(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveItem(["a", "b", "c"], 2, 1)).toEqual(["a", "c", "b"]);
    const list = ["a", "b"];
    expect(moveItem(list, 0, -1)).toBe(list);
    expect(moveItem(list, 1, 2)).toBe(list);
  });
});

describe("draftChanged", () => {
  it("is false for an untouched new table or saved table, true after any change saving sends", () => {
    expect(draftChanged(emptyDraft(), undefined)).toBe(false);
    expect(draftChanged({ ...emptyDraft(), table_name: "Leads" }, undefined)).toBe(true);
    const draft = draftFromSchema(saved);
    expect(draftChanged(draft, saved)).toBe(false);
    expect(draftChanged({ ...draft, description: "Customers" }, saved)).toBe(true);
    expect(draftChanged({ ...draft, fields: draft.fields.map((f, i) => (i === 1 ? updateField(f, { label: "Phase" }) : f)) }, saved)).toBe(true);
    expect(draftChanged({ ...draft, fields: moveItem(draft.fields, 0, 2) }, saved)).toBe(true);
  });
  it("names the saved fields a draft removes", () => {
    const draft = draftFromSchema(saved);
    expect(removedFields({ ...draft, fields: draft.fields.slice(1) }, saved).map((f) => f.fieldname)).toEqual(["full_name"]);
    expect(removedFields(draft, saved)).toEqual([]);
  });
});
