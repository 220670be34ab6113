/** Content blocks of an agent's answer (docs/chat-and-stream.md, "Content blocks"): types and pure helpers. */

export type Cell = string | number | boolean | null;

export type ContentBlock =
  | { type: "table"; title?: string; columns: string[]; rows: Cell[][] }
  | { type: "chart"; kind: "bar" | "line" | "pie"; title?: string; labels: string[]; series: Array<{ name?: string; data: Array<number | null> }> }
  | { type: "kpi"; label: string; value: string | number; delta?: string | number | null; unit?: string }
  | { type: "status_list"; title?: string; items: Array<{ label: string; status: string; detail?: string }> }
  | { type: "markdown"; text: string; fallback?: string };

export type ChartBlock = Extract<ContentBlock, { type: "chart" }>;

const TYPES = new Set(["table", "chart", "kpi", "status_list", "markdown"]);

/** Whether `value` has the shape the renderers rely on (the server validated it; this guards old or foreign data). */
export function isBlock(value: unknown): value is ContentBlock {
  if (!value || typeof value !== "object") return false;
  const b = value as Record<string, unknown>;
  if (typeof b.type !== "string" || !TYPES.has(b.type)) return false;
  switch (b.type) {
    case "table":
      return Array.isArray(b.columns) && Array.isArray(b.rows) && b.rows.every(Array.isArray);
    case "chart":
      return Array.isArray(b.labels) && Array.isArray(b.series) && b.series.every((s) => s && Array.isArray((s as { data?: unknown }).data));
    case "kpi":
      return typeof b.label === "string" && (typeof b.value === "string" || typeof b.value === "number");
    case "status_list":
      return Array.isArray(b.items);
    default:
      return typeof b.text === "string";
  }
}

/** The blocks stored with a message (`content_blocks`: a JSON string from REST, or a list); null when none. */
export function parseBlocks(value: unknown): ContentBlock[] | null {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.every(isBlock) ? (list as ContentBlock[]) : null;
}

/** Place `block` at `index` of the blocks streamed so far. */
export function withBlock(blocks: ContentBlock[] | undefined, index: number, block: ContentBlock): ContentBlock[] {
  const next = [...(blocks ?? [])];
  next[index] = block;
  return next;
}

const OPEN = /^ {0,3}(`{3,}|~{3,})[ \t]*huf-block\b[^\n]*$/i;

/**
 * The answer's text while it streams, with each `huf-block` fence (closed or still being written)
 * replaced by a short note: the raw JSON is not shown before the blocks arrive.
 */
export function hideBlockSources(text: string): string {
  if (!/huf-block/i.test(text)) return text;
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i] ?? "");
    if (!open) {
      out.push(lines[i] ?? "");
      continue;
    }
    const fence = open[1] ?? "```";
    const close = new RegExp(`^ {0,3}${fence[0] === "~" ? "~" : "`"}{${fence.length},}[ \\t]*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end] ?? "")) end++;
    out.push("", "_Preparing a block…_", "");
    i = end;
  }
  return out.join("\n");
}

export type Tone = "ok" | "warning" | "error" | "info" | "neutral";

const TONES: Record<string, Tone> = {
  ok: "ok", success: "ok", succeeded: "ok", done: "ok", passed: "ok", healthy: "ok", up: "ok", green: "ok", completed: "ok", active: "ok",
  warning: "warning", warn: "warning", degraded: "warning", pending: "warning", waiting: "warning", slow: "warning", amber: "warning", yellow: "warning",
  error: "error", failed: "error", failure: "error", down: "error", critical: "error", red: "error", blocked: "error",
  info: "info", running: "info", queued: "info", started: "info", "in progress": "info",
};

/** The colour family of a status word ("ok", "Failed", "degraded"…); unknown words are neutral. */
export function statusTone(status: string): Tone {
  return TONES[status.trim().toLowerCase()] ?? "neutral";
}

/** Whether a KPI's change reads as up, down or neither ("+4%", -12, "−3 pts", "0"). */
export function deltaDirection(delta: string | number | null | undefined): "up" | "down" | "flat" | null {
  if (delta === null || delta === undefined || delta === "") return null;
  const n = typeof delta === "number" ? delta : Number.parseFloat(String(delta).replace(/[−–]/g, "-").replace(/[^0-9.+-]/g, ""));
  if (Number.isNaN(n)) return null;
  return n > 0 ? "up" : n < 0 ? "down" : "flat";
}

/** A table cell as text: numbers with the reader's grouping, booleans as Yes/No, null empty. */
export function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "boolean") return cell ? "Yes" : "No";
  if (typeof cell === "number") return cell.toLocaleString(undefined, { maximumFractionDigits: 6 });
  return cell;
}

/** The chart's text alternative: what it shows, its series and where each peaks. */
export function chartSummary(chart: ChartBlock): string {
  const kind = chart.kind === "pie" ? "Pie chart" : chart.kind === "line" ? "Line chart" : "Bar chart";
  const head = `${kind}${chart.title ? `: ${chart.title}` : ""}, ${chart.labels.length} ${chart.labels.length === 1 ? "label" : "labels"}`;
  const parts = chart.series.map((s, i) => {
    const name = seriesName(s, i);
    const values = s.data.map((v, j) => [v, j] as const).filter((p): p is readonly [number, number] => typeof p[0] === "number");
    if (!values.length) return `${name}: no values`;
    const [top, at] = values.reduce((a, b) => (b[0] > a[0] ? b : a));
    return `${name}: highest ${formatCell(top)} at ${chart.labels[at] ?? ""}`;
  });
  return [head, ...parts].join("; ") + ".";
}

export function seriesName(series: { name?: string }, index: number): string {
  return series.name?.trim() || `Series ${index + 1}`;
}

/** Series colours readable on the light and the dark background (Tailwind's 500 shades). */
export const PALETTE = ["#6366f1", "#10b981", "#f59e0b", "#ef4444", "#0ea5e9", "#a855f7", "#14b8a6", "#f97316", "#64748b", "#ec4899"];

export interface ChartTheme {
  text: string;
  grid: string;
  border: string;
}

export function chartTheme(dark: boolean): ChartTheme {
  return dark ? { text: "#cbd5e1", grid: "#334155", border: "#0f172a" } : { text: "#475569", grid: "#e2e8f0", border: "#ffffff" };
}

/** The Chart.js configuration of a chart block (pure, so that it is tested without a canvas). */
export function chartConfig(chart: ChartBlock, dark: boolean) {
  const theme = chartTheme(dark);
  const pie = chart.kind === "pie";
  const datasets = chart.series.map((s, i) => ({
    label: seriesName(s, i),
    data: s.data,
    backgroundColor: pie ? chart.labels.map((_, j) => PALETTE[j % PALETTE.length]!) : PALETTE[i % PALETTE.length]!,
    borderColor: pie ? theme.border : PALETTE[i % PALETTE.length]!,
    borderWidth: pie ? 2 : chart.kind === "line" ? 2 : 0,
    spanGaps: true,
  }));
  const axis = { ticks: { color: theme.text }, grid: { color: theme.grid } };
  return {
    type: chart.kind,
    data: { labels: chart.labels, datasets },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false as const,
      plugins: {
        legend: { display: pie || chart.series.length > 1, labels: { color: theme.text } },
        title: { display: false },
      },
      scales: pie ? {} : { x: axis, y: { ...axis, beginAtZero: true } },
    },
  };
}
