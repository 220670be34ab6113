import { describe, expect, it } from "vitest";
import { configProblems } from "./nodeConfig";
import { defaultData } from "./nodeTypes";
import { answerValues, fieldnameFrom, inputProblems, requestOf, type RequestField } from "./userInput";

const field = (fieldname: string, fieldtype: RequestField["fieldtype"], extra: Partial<RequestField> = {}): RequestField => ({
  label: fieldname,
  fieldname,
  fieldtype,
  options: [],
  required: 0,
  ...extra,
});

describe("the Wait for input step", () => {
  it("names what is wrong with its form, as the server does", () => {
    expect(inputProblems({})).toEqual([{ field: "fields", message: "Add at least one field." }]);
    expect(configProblems("human.input", defaultData("human.input")).map((p) => p.field)).toEqual(["fields.0.fieldname"]);
    const fields = [
      { fieldname: "amount", fieldtype: "Int" },
      { fieldname: "amount" },
      { fieldname: "Bad name" },
      { fieldname: "kind", fieldtype: "Link" },
      { fieldname: "size", fieldtype: "Select", options: "\n" },
      { fieldname: "colour", fieldtype: "Select", options: "red\nblue" },
    ];
    expect(inputProblems({ fields })).toEqual([
      { field: "fields.1.fieldname", message: "Field 2: amount is used twice." },
      { field: "fields.2.fieldname", message: "Field 3: the fieldname uses lowercase letters, digits and _ (e.g. amount)." },
      { field: "fields.3.fieldtype", message: "Field 4: choose one of Data, Text, Int, Float, Check, Select, Date." },
      { field: "fields.4.options", message: "Field 5: list the options, one per line." },
    ]);
  });

  it("makes fieldnames from labels", () => {
    expect(fieldnameFrom("Refund amount (€)")).toBe("refund_amount");
    expect(fieldnameFrom("2nd Café")).toBe("nd_cafe");
  });

  it("sends the filled fields as text and checks as 1 or 0", () => {
    const fields = [field("amount", "Int"), field("note", "Text"), field("ok", "Check"), field("sure", "Check")];
    expect(answerValues(fields, { amount: " 12 ", note: "  ", ok: true })).toEqual({ amount: "12", ok: 1, sure: 0 });
  });

  it("reads the request from a waiting run", () => {
    expect(requestOf("run-1", { kind: "user", node_id: "done" })).toBeNull();
    expect(requestOf("run-1", null)).toBeNull();
    expect(requestOf("run-1", { title: "Amount?", fields: [field("amount", "Int")] })).toEqual({
      flow_run_id: "run-1",
      title: "Amount?",
      instructions: null,
      fields: [field("amount", "Int")],
    });
  });
});
