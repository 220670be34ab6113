import { describe, expect, it } from "vitest";
import { buildToolSchema, toFieldname } from "./schema";

describe("buildToolSchema", () => {
  it("builds the parameters object the model sees, like the server does", () => {
    const schema = buildToolSchema("get_weather", " The weather. ", [
      { label: "City", fieldname: "city", type: "string", required: 1, description: "" },
      { label: "Unit", fieldname: "unit", type: "string", options: "C\nF" },
      { label: "Days", fieldname: "days", type: "integer", options: "1\n3" },
      { label: "Tags", fieldname: "tags", type: "array" },
      { label: "Extra", fieldname: "extra", type: "object" },
      { label: "Qty", fieldname: "qty", type: "number", child_table_name: "items", required: 1 },
      { label: "", fieldname: " ", type: "string" },
    ]);
    expect(schema.name).toBe("get_weather");
    expect(schema.description).toBe("The weather.");
    expect(schema.parameters).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["city"],
      properties: {
        city: { type: "string", description: "City" },
        unit: { type: "string", description: "Unit", enum: ["C", "F"] },
        days: { type: "integer", description: "Days", enum: [1, 3] },
        tags: { type: "array", description: "Tags", items: { type: "string" } },
        extra: { type: "object", description: "Extra", additionalProperties: true },
        items: {
          type: "array",
          description: "Rows of the items table",
          items: { type: "object", properties: { qty: { type: "number", description: "Qty" } }, required: ["qty"], additionalProperties: false },
        },
      },
    });
  });

  it("suggests field names from labels", () => {
    expect(toFieldname("Customer Name")).toBe("customer_name");
    expect(toFieldname("  Due (date) ")).toBe("due_date");
  });
});
