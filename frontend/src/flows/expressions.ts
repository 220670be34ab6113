/** Expressions and `{{ }}` templates as the editor checks them before asking the server. */

/** The expressions inside the `{{ }}` placeholders of a template. */
export function placeholders(template: string): string[] {
  const out: string[] = [];
  for (const match of template.matchAll(/\{\{([\s\S]*?)\}\}/g)) out.push((match[1] ?? "").trim());
  return out;
}

/** What the server would evaluate for a setting: a bare expression, or the one placeholder it consists of. */
export function bareExpression(value: string): string {
  const text = value.trim();
  if (text.startsWith("{{") && text.endsWith("}}") && text.split("{{").length === 2) return text.slice(2, -2).trim();
  return text;
}

/** A problem the editor sees without the server (unbalanced braces, an empty placeholder), or null. */
export function localTemplateProblem(template: string): string | null {
  const opens = template.split("{{").length - 1;
  const closes = template.split("}}").length - 1;
  if (opens !== closes) return "A {{ placeholder }} is not closed.";
  if (placeholders(template).some((p) => !p)) return "A {{ }} placeholder is empty.";
  return null;
}

/** A tool argument typed in a form, as the tool wants it: placeholders stay text (the server fills them
 * in, keeping the value's type when the text is one placeholder); numbers, booleans and JSON are parsed. */
export function argumentValue(text: string, type: string): unknown {
  if (text.includes("{{")) return text;
  const trimmed = text.trim();
  if (type === "integer" || type === "number") {
    const n = Number(trimmed);
    return trimmed !== "" && Number.isFinite(n) ? (type === "integer" ? Math.trunc(n) : n) : text;
  }
  if (type === "boolean") return trimmed === "true" ? true : trimmed === "false" ? false : text;
  if (type === "array" || type === "object") {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (type === "array" ? Array.isArray(parsed) : parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    } catch {
      /* kept as typed */
    }
  }
  return text;
}

/** How a stored argument reads in its form field. */
export function argumentText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
