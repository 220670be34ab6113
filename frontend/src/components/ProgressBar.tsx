import { cx } from "./ui";

/** The bar's colour: `accent` (the default) for work under way, the others for how something stands. */
export type ProgressTone = "accent" | "ok" | "warning" | "danger";

const TONE_COLOURS: Record<ProgressTone, string> = {
  accent: "bg-indigo-600 dark:bg-indigo-400",
  ok: "bg-emerald-600",
  warning: "bg-amber-500",
  danger: "bg-red-600",
};

/** A labelled progress bar: "<label> 42%" over a filled track; `percent` null shows it without a value (still going). */
export function ProgressBar({ label, percent, detail, tone = "accent", className }: { label: string; percent: number | null; detail?: string; tone?: ProgressTone; className?: string }) {
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
        <div className={cx("h-full rounded-full transition-[width]", TONE_COLOURS[tone], percent === null && "w-1/3 animate-pulse")} style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
