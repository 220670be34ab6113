import { describe, expect, it } from "vitest";
import { searchTools } from "./toolSearch";

const tools = [
  { name: "send_invoice", description: "Emails an invoice to a customer." },
  { name: "get_weather", description: "Today's weather for a city." },
  { name: "list_todos", description: null },
];

describe("searchTools", () => {
  it("offers every tool not taken, by name, when nothing is typed", () => {
    expect(searchTools(tools, "  ", ["get_weather"]).map((t) => t.name)).toEqual(["list_todos", "send_invoice"]);
  });
  it("finds words in the name or the description, in any case", () => {
    expect(searchTools(tools, "WEATHER").map((t) => t.name)).toEqual(["get_weather"]);
    expect(searchTools(tools, "customer").map((t) => t.name)).toEqual(["send_invoice"]);
    expect(searchTools(tools, "todos").map((t) => t.name)).toEqual(["list_todos"]);
  });
  it("wants every word typed", () => {
    expect(searchTools(tools, "invoice city")).toEqual([]);
    expect(searchTools(tools, "email invoice").map((t) => t.name)).toEqual(["send_invoice"]);
  });
});
