import { Component, lazy, Suspense, type ReactNode } from "react";
import { Markdown } from "../Markdown";
import { cx } from "../ui";
import { chartSummary, deltaDirection, formatCell, parseBlocks, statusTone, type ChartBlock, type ContentBlock, type Tone } from "../../lib/blocks";

// Chart.js is loaded with the first chart shown, not with the chat
const ChartBlockView = lazy(() => import("./ChartBlockView"));

/** A chart that cannot be drawn (its script failed to load, Chart.js threw) is described in words instead. */
class ChartBoundary extends Component<{ block: ChartBlock; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p className="my-2 text-sm" data-testid="block-chart-text">
        {chartSummary(this.props.block)} <span className="text-slate-500">(The chart could not be drawn.)</span>
      </p>
    );
  }
}

const BORDER = "border border-slate-300 px-2 py-1 dark:border-slate-700";

function TableBlock({ block }: { block: Extract<ContentBlock, { type: "table" }> }) {
  return (
    // a wide table scrolls sideways: the region takes the keyboard focus so that it can be scrolled without a mouse
    <div className="my-2 overflow-x-auto" data-testid="block-table" role="region" aria-label={block.title || "Table"} tabIndex={0}>
      <table className="min-w-full border-collapse text-sm">
        {block.title && <caption className="mb-1 text-left font-medium">{block.title}</caption>}
        <thead className="bg-slate-100 dark:bg-slate-800">
          <tr>
            {block.columns.map((c, i) => (
              <th key={i} scope="col" className={cx(BORDER, "text-left font-semibold")}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {block.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c} className={cx(BORDER, typeof cell === "number" && "text-right tabular-nums")}>
                  {formatCell(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {block.rows.length === 0 && <p className="mt-1 text-xs text-slate-500">No rows.</p>}
    </div>
  );
}

const DELTA = {
  up: { sign: "▲", words: "up", className: "text-emerald-700 dark:text-emerald-400" },
  down: { sign: "▼", words: "down", className: "text-red-700 dark:text-red-400" },
  flat: { sign: "■", words: "unchanged", className: "text-slate-600 dark:text-slate-300" },
};

function KpiBlock({ block }: { block: Extract<ContentBlock, { type: "kpi" }> }) {
  const direction = deltaDirection(block.delta);
  const delta = direction ? DELTA[direction] : null;
  const value = typeof block.value === "number" ? formatCell(block.value) : block.value;
  return (
    <div className="my-2 inline-block min-w-[10rem] rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 align-top dark:border-slate-700 dark:bg-slate-800/60" data-testid="block-kpi">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-300">{block.label}</p>
      <p className="text-2xl font-semibold tabular-nums">
        {value}
        {block.unit && <span className="ml-1 text-base font-normal text-slate-600 dark:text-slate-300">{block.unit}</span>}
      </p>
      {block.delta !== undefined && block.delta !== null && block.delta !== "" && (
        <p className={cx("text-sm tabular-nums", delta?.className ?? "text-slate-600 dark:text-slate-300")}>
          {delta && <span aria-hidden="true">{delta.sign} </span>}
          {delta && <span className="sr-only">{delta.words} </span>}
          {String(block.delta)}
        </p>
      )}
    </div>
  );
}

const TONE_CLASS: Record<Tone, string> = {
  ok: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100",
  error: "bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200",
  info: "bg-sky-100 text-sky-900 dark:bg-sky-900/60 dark:text-sky-100",
  neutral: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
};

function StatusListBlock({ block }: { block: Extract<ContentBlock, { type: "status_list" }> }) {
  return (
    <section className="my-2" data-testid="block-status-list" aria-label={block.title || "Status list"}>
      {block.title && <p className="mb-1 font-medium">{block.title}</p>}
      <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {block.items.map((item, i) => (
          <li key={i} className="flex flex-wrap items-baseline gap-x-2 px-3 py-1.5">
            <span className={cx("rounded px-1.5 py-0.5 text-xs font-medium", TONE_CLASS[statusTone(item.status)])}>{item.status}</span>
            <span className="font-medium">{item.label}</span>
            {item.detail && <span className="text-slate-600 dark:text-slate-300">{item.detail}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function MarkdownBlock({ block }: { block: Extract<ContentBlock, { type: "markdown" }> }) {
  if (!block.fallback) return <Markdown text={block.text} />;
  return (
    // the source wraps (a block is often one long line): nothing to scroll sideways
    <div className="my-2 [&_pre]:whitespace-pre-wrap [&_pre]:break-all" data-testid="block-fallback">
      <p className="text-xs text-amber-800 dark:text-amber-300">{block.fallback}</p>
      <Markdown text={block.text} />
    </div>
  );
}

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case "table":
      return <TableBlock block={block} />;
    case "chart":
      return (
        <ChartBoundary block={block}>
          <Suspense fallback={<p className="text-sm text-slate-500">Loading the chart…</p>}>
            <ChartBlockView block={block} />
          </Suspense>
        </ChartBoundary>
      );
    case "kpi":
      return <KpiBlock block={block} />;
    case "status_list":
      return <StatusListBlock block={block} />;
    default:
      return <MarkdownBlock block={block} />;
  }
}

/** An answer made of content blocks, in order (blocks missing while they stream are skipped). */
export function ContentBlocks({ blocks }: { blocks: ContentBlock[] }) {
  return (
    <div className="space-y-1" data-testid="content-blocks">
      {blocks.map((block, i) => (block ? <Block key={i} block={block} /> : null))}
    </div>
  );
}

/** A stored answer: its content blocks (the message's `content_blocks`) when it has some, else its text. */
export function AnswerBody({ content, blocks }: { content: string | null; blocks?: unknown }) {
  const parsed = parseBlocks(blocks);
  return parsed ? <ContentBlocks blocks={parsed} /> : <Markdown text={content ?? ""} />;
}
