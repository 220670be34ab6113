import { describe, expect, it } from "vitest";
import { KINDS, categoryFor, withKind } from "./toolKinds";

describe("tool kinds", () => {
  it("gives every kind a category", () => {
    expect(KINDS.filter((k) => !categoryFor(k))).toEqual([]);
    expect(categoryFor("Get List")).toBe("Document Operations");
    expect(categoryFor("POST")).toBe("HTTP");
    expect(categoryFor("")).toBe("");
  });

  it("fills the category from the kind, and follows later changes of kind", () => {
    const picked = withKind({ types: "Get List", tool_type: "" }, "");
    expect(picked.tool_type).toBe("Document Operations");
    expect(withKind({ ...picked, types: "GET" }, "Get List").tool_type).toBe("HTTP");
  });

  it("keeps a category the user chose", () => {
    expect(withKind({ types: "GET", tool_type: "Knowledge" }, "Get List").tool_type).toBe("Knowledge");
  });
});
