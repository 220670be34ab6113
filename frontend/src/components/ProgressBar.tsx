import { cx } from "./ui";

/** A labelled progress bar: "<label> 42%" over a filled track; `percent` null shows it without a value (still going). */
export function ProgressBar({ label, percent, detail, className }: { label: string; percent: number | null; detail?: string; className?: string }) {
  return (
    <div className={cx("space-y-1", className)}>
      <div className="flex justify-between gap-2 text-xs text-slate-600 dark:text-slate-300">
        <span className="truncate">{label}</span>
        <span className="shrink-0 tabular-nums">{detail ?? (percent === null ? "" : `${percent}%`)}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={detail ?? (percent === null ? undefined : `${percent}%`)}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className={cx("h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400", percent === null && "w-1/3 animate-pulse")} style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
