/** A tool call's arguments or result as shown in the chat: JSON when it is JSON, else text folded when long. */

export type Parsed = { kind: "json"; value: unknown } | { kind: "text"; text: string };

/** JSON objects and arrays (given as values or as JSON text) are JSON; any other text stays text. */
export function parseToolValue(value: unknown): Parsed {
  if (typeof value !== "string") return { kind: "json", value: value ?? {} };
  const text = value.trim();
  if (text.startsWith("{") || text.startsWith("[")) {
    try {
      return { kind: "json", value: JSON.parse(text) };
    } catch {
      // not JSON after all
    }
  }
  return { kind: "text", text: value };
}

/** The lines JSON.stringify(value, null, 2) takes: a large value starts folded below its first level. */
export function jsonLines(value: unknown): number {
  return (JSON.stringify(value, null, 2) ?? "").split("\n").length;
}

export const FOLD_LINES = 12;
export const FOLD_CHARS = 1200;

/** The start of a long text shown folded (null when it is short enough to show whole) and how much is hidden. */
export function foldText(text: string, lines = FOLD_LINES, chars = FOLD_CHARS): { head: string; hiddenLines: number; hiddenChars: number } | null {
  const all = text.split("\n");
  if (all.length <= lines && text.length <= chars) return null;
  let head = all.slice(0, lines).join("\n");
  if (head.length > chars) head = head.slice(0, chars);
  return { head, hiddenLines: Math.max(0, all.length - head.split("\n").length), hiddenChars: text.length - head.length };
}

/** "3 keys", "1 item": what a folded object or array holds. */
export function sizeLabel(value: object): string {
  const n = Array.isArray(value) ? value.length : Object.keys(value).length;
  const noun = Array.isArray(value) ? "item" : "key";
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
