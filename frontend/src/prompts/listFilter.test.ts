import { describe, expect, it } from "vitest";
import { filterTemplates, templateCategories } from "./listFilter";
import type { PromptVersion } from "./promptApi";

const t = (name: string, title: string, category: string | null, description = ""): PromptVersion => ({ name, title, category, description, version: 1, slug: title.toLowerCase().replace(/ /g, "-") });
const templates = [t("a", "Sales Assistant", "Sales", "Friendly"), t("b", "Support Triage", "Support"), t("c", "Plain", null, "no category, terse")];

describe("template list filters", () => {
  it("lists the categories in use, templates without one last", () => {
    expect(templateCategories(templates)).toEqual(["Sales", "Support", ""]);
  });

  it("filters by category, including templates without one", () => {
    expect(filterTemplates(templates, "", "Support").map((x) => x.name)).toEqual(["b"]);
    expect(filterTemplates(templates, "", "").map((x) => x.name)).toEqual(["a", "b", "c"]);
  });

  it("searches title, slug and description in any case", () => {
    expect(filterTemplates(templates, "TRIAGE", "").map((x) => x.name)).toEqual(["b"]);
    expect(filterTemplates(templates, "sales-assistant", "").map((x) => x.name)).toEqual(["a"]);
    expect(filterTemplates(templates, "terse", "").map((x) => x.name)).toEqual(["c"]);
    expect(filterTemplates(templates, "friendly", "Support")).toEqual([]);
  });
});
