import { describe, expect, it } from "vitest";
import { KINDS, categoryFor, withApprovalDefault, withKind } from "./toolKinds";

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

describe("a new tool's approval", () => {
  const kinds = ["Delete Document", "Delete Multiple Documents", "POST"];

  it("is asked for the kinds that delete or send", () => {
    expect(withApprovalDefault({ types: "Delete Document" }, kinds).requires_approval).toBe(1);
    expect(withApprovalDefault({ types: "POST", requires_approval: 0 }, kinds).requires_approval).toBe(1);
  });

  it("is not asked for the others", () => {
    expect(withApprovalDefault({ types: "Get List", requires_approval: 1 }, kinds).requires_approval).toBe(0);
    expect(withApprovalDefault({ types: "GET" }, kinds).requires_approval).toBe(0);
  });
});
