import { useEffect, useRef, useState } from "react";
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PieController,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from "chart.js";
import { chartConfig, chartSummary, formatCell, seriesName, type ChartBlock } from "../../lib/blocks";

Chart.register(BarController, LineController, PieController, BarElement, LineElement, PointElement, ArcElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Whether the dark theme is shown, following the theme switch while the chart is on the page. */
function useDarkTheme(): boolean {
  const read = () => document.documentElement.classList.contains("dark");
  const [dark, setDark] = useState(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

/** A chart block drawn by Chart.js; its text alternative is the summary (aria-label) and the data as a table. */
export default function ChartBlockView({ block }: { block: ChartBlock }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const dark = useDarkTheme();
  const summary = chartSummary(block);

  useEffect(() => {
    if (!canvas.current) return undefined;
    const chart = new Chart(canvas.current, chartConfig(block, dark) as ChartConfiguration);
    return () => chart.destroy();
  }, [block, dark]);

  return (
    <figure className="my-2" data-testid="block-chart" data-kind={block.kind}>
      {block.title && <figcaption className="mb-1 text-sm font-medium">{block.title}</figcaption>}
      <div className={block.kind === "pie" ? "relative mx-auto h-56 max-w-xs" : "relative h-56 w-full min-w-[16rem]"}>
        <canvas ref={canvas} role="img" aria-label={summary}>
          {summary}
        </canvas>
      </div>
      <details className="mt-1 text-xs text-slate-600 dark:text-slate-300">
        <summary className="cursor-pointer">Show the data</summary>
        <div className="overflow-x-auto" role="region" aria-label={`${block.title || "Chart"} data`} tabIndex={0}>
          <table className="mt-1 border-collapse text-xs">
            <caption className="sr-only">{block.title || "Chart data"}</caption>
            <thead>
              <tr>
                <th scope="col" className="border border-slate-300 px-2 py-1 text-left dark:border-slate-700">
                  Label
                </th>
                {block.series.map((s, i) => (
                  <th key={i} scope="col" className="border border-slate-300 px-2 py-1 text-left dark:border-slate-700">
                    {seriesName(s, i)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.labels.map((label, j) => (
                <tr key={j}>
                  <th scope="row" className="border border-slate-300 px-2 py-1 text-left font-normal dark:border-slate-700">
                    {label}
                  </th>
                  {block.series.map((s, i) => (
                    <td key={i} className="border border-slate-300 px-2 py-1 text-right tabular-nums dark:border-slate-700">
                      {formatCell(s.data[j] ?? null)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
