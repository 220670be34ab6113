import { describe, expect, it } from "vitest";
import { docTypeDefaults } from "./doctypeDefaults";

describe("docTypeDefaults", () => {
  it("types each literal default as the server stores it", () => {
    const meta = {
      fields: [
        { fieldname: "mode", fieldtype: "Select", default: "Optional" },
        { fieldname: "priority", fieldtype: "Int", default: "0" },
        { fieldname: "enabled", fieldtype: "Check", default: "1" },
        { fieldname: "ratio", fieldtype: "Float", default: "0.7" },
        { fieldname: "token_budget", fieldtype: "Int" },
        { fieldname: "title", fieldtype: "Data", default: "" },
      ],
    };
    expect(docTypeDefaults(meta)).toEqual({ mode: "Optional", priority: 0, enabled: 1, ratio: 0.7 });
  });

  it("leaves defaults the server works out to the server", () => {
    const meta = {
      fields: [
        { fieldname: "user", fieldtype: "Link", default: "__user" },
        { fieldname: "day", fieldtype: "Date", default: "Today" },
        { fieldname: "at", fieldtype: "Datetime", default: "now" },
      ],
    };
    expect(docTypeDefaults(meta)).toEqual({});
  });
});
