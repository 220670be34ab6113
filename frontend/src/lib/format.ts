/** Formatting of numbers, money and dates for display. */

export function formatNumber(value: unknown): string {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n.toLocaleString("en-US") : "0";
}

export function formatCost(value: unknown): string {
  const n = Number(value ?? 0);
  if (!Number.isFinite(n) || n === 0) return "$0.00";
  return n < 0.01 ? `$${n.toFixed(6)}` : `$${n.toFixed(4)}`;
}

/** Server datetimes ("2026-01-02 10:11:12.123") as local, readable text. */
export function formatDate(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  const date = new Date(value.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** A date as the server writes it (YYYY-MM-DD, local time). */
export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

export function daysAgo(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() - days);
  return isoDate(d);
}

export function today(): string {
  return daysAgo(0);
}

export function monthStart(): string {
  const d = new Date();
  return isoDate(new Date(d.getFullYear(), d.getMonth(), 1));
}

/** "1 piece", "2 pieces", "1,200 tokens": a count with its noun in the right number. */
export function plural(count: unknown, singular: string, pluralForm: string = `${singular}s`): string {
  const n = Number(count ?? 0);
  return `${formatNumber(n)} ${Math.abs(n) === 1 ? singular : pluralForm}`;
}

/** A search score as sent (0..1, higher is better), with enough digits to tell small ones apart; null when there is none. */
export function formatScore(score: unknown): string | null {
  if (typeof score !== "number" || !Number.isFinite(score)) return null;
  if (score === 0 || Math.abs(score) >= 0.001) return String(Number(score.toFixed(3)));
  return String(Number(score.toPrecision(2)));
}

const NOUNS: Record<string, string> = {
  "Agent Tool Function": "tool",
  "AI Provider": "provider",
  "AI Model": "model",
  "MCP Server": "MCP server",
};

/** What people call a record of `doctype` in a sentence ("tool", "knowledge source"). */
export function recordNoun(doctype: string): string {
  return NOUNS[doctype] ?? doctype.toLowerCase();
}

/** The confirmation before deleting one record, naming it: Delete agent "Support bot"? */
export function deleteQuestion(noun: string, name: string): string {
  return `Delete ${noun} "${name}"?`;
}
