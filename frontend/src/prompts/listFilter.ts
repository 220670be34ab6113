import type { PromptVersion } from "./promptApi";

/** The categories the templates use, sorted; "" stands for templates without one. */
export function templateCategories(templates: PromptVersion[]): string[] {
  return [...new Set(templates.map((t) => t.category ?? ""))].sort((a, b) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)));
}

/** Templates whose title, slug or description contains `term` (any case), in `category` when one is chosen. */
export function filterTemplates(templates: PromptVersion[], term: string, category: string): PromptVersion[] {
  const text = term.trim().toLowerCase();
  return templates.filter(
    (t) =>
      (!category || (t.category ?? "") === category) &&
      (!text || [t.title, t.slug, t.description].some((v) => (v ?? "").toLowerCase().includes(text))),
  );
}
