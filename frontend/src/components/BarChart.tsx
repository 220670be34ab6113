import { useEffect, useRef, useState } from "react";
import { labelEvery, niceTicks, shortDay } from "./chartScale";

const HEIGHT = 180;
const TOP = 18; // room for the value over the tallest bar
const BOTTOM = 22; // the day labels
const CHAR = 6.5; // the width of a character of the 11 px axis font, about

/** The width of the element (drawn at its real size: text stays readable on a phone). */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    setWidth(el.clientWidth || fallback);
    if (typeof ResizeObserver === "undefined") return undefined;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth || fallback));
    observer.observe(el);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width] as const;
}

/** A bar chart of one value per day: value axis with round ticks, day axis, the value over each bar
 * where it fits, and the same numbers as a table for screen readers. */
export function BarChart({
  title,
  labels,
  values,
  format = (v) => String(v),
  formatTick = format,
  counts = false,
}: {
  title: string;
  labels: string[];
  values: number[];
  format?: (value: number) => string;
  /** The value axis' labels (default: as `format`). */
  formatTick?: (value: number) => string;
  /** Whole numbers (runs, messages): the value axis steps by 1 at least. */
  counts?: boolean;
}) {
  const [box, width] = useWidth<HTMLDivElement>(560);
  const ticks = niceTicks(Math.max(0, ...values), 4, counts ? 1 : 0);
  const top = ticks[ticks.length - 1] ?? 1;
  const left = Math.max(...ticks.map((t) => formatTick(t).length)) * CHAR + 10;
  const plot = Math.max(40, width - left - 4);
  const bar = plot / Math.max(1, values.length);
  const every = labelEvery(values.length, bar, 44);
  const y = (v: number) => TOP + (1 - v / top) * (HEIGHT - TOP - BOTTOM);
  const total = values.reduce((s, v) => s + v, 0);
  const peak = values.indexOf(Math.max(...values));

  return (
    <figure>
      <figcaption className="mb-1 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium">{title}</span>
        <span className="text-slate-600 dark:text-slate-300">
          Total {format(total)}
          {total > 0 && peak >= 0 && ` · peak ${format(values[peak] ?? 0)} on ${shortDay(labels[peak] ?? "")}`}
        </span>
      </figcaption>
      <div ref={box} className="w-full">
        <svg width={width} height={HEIGHT} className="block max-w-full text-[11px]" aria-hidden="true" data-testid="bar-chart">
          {ticks.map((t) => (
            <g key={t}>
              <line x1={left} x2={left + plot} y1={y(t)} y2={y(t)} className="stroke-slate-200 dark:stroke-slate-700" strokeDasharray={t === 0 ? undefined : "3 3"} />
              <text x={left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-slate-600 dark:fill-slate-300">
                {formatTick(t)}
              </text>
            </g>
          ))}
          <line x1={left} x2={left} y1={TOP - 4} y2={y(0)} className="stroke-slate-400 dark:stroke-slate-500" />
          <line x1={left} x2={left + plot} y1={y(0)} y2={y(0)} className="stroke-slate-400 dark:stroke-slate-500" />
          {values.map((v, i) => {
            const x = left + i * bar;
            const text = format(v);
            return (
              <g key={labels[i] ?? i}>
                <title>{`${shortDay(labels[i] ?? "")}: ${text}`}</title>
                <rect x={x + bar * 0.15} y={y(v)} width={Math.max(1, bar * 0.7)} height={y(0) - y(v)} rx={2} className="fill-indigo-500 dark:fill-indigo-400" />
                {v > 0 && text.length * CHAR <= bar + 4 && (
                  <text x={x + bar / 2} y={y(v) - 4} textAnchor="middle" className="fill-slate-700 font-medium dark:fill-slate-200">
                    {text}
                  </text>
                )}
                {i % every === 0 && (
                  <text x={x + bar / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-600 dark:fill-slate-300">
                    {shortDay(labels[i] ?? "")}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {values.map((v, i) => (
            <tr key={labels[i] ?? i}>
              <td>{labels[i]}</td>
              <td>{format(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
