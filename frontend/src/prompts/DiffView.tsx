import { cx } from "../components/ui";
import { diffStats, sideBySide, type DiffRow, type DiffSide } from "./lineDiff";

const TONE: Record<DiffRow["kind"], { left: string; right: string }> = {
  same: { left: "", right: "" },
  removed: { left: "bg-red-50 dark:bg-red-950/40", right: "bg-slate-50 dark:bg-slate-900" },
  added: { left: "bg-slate-50 dark:bg-slate-900", right: "bg-emerald-50 dark:bg-emerald-950/40" },
  changed: { left: "bg-red-50 dark:bg-red-950/40", right: "bg-emerald-50 dark:bg-emerald-950/40" },
};

function Cell({ side, tone, mark }: { side?: DiffSide; tone: string; mark: string }) {
  return (
    <>
      <td className={cx("w-10 select-none px-2 text-right align-top text-slate-400", tone)}>{side?.line ?? ""}</td>
      <td className={cx("whitespace-pre-wrap break-words px-2 align-top", tone)}>
        {side && mark && <span className="sr-only">{mark} </span>}
        {side?.text ?? ""}
      </td>
    </>
  );
}

const lines = (n: number) => (n === 1 ? "1 line" : `${n} lines`);

/** Two versions of a prompt side by side, changed lines highlighted. */
export function DiffView({ before, after, beforeLabel, afterLabel }: { before: string; after: string; beforeLabel: string; afterLabel: string }) {
  const rows = sideBySide(before, after);
  const stats = diffStats(rows);
  return (
    <div>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="diff-stats">
        {stats.added === 0 && stats.removed === 0 ? "The two versions are the same." : `${lines(stats.added)} added, ${lines(stats.removed)} removed.`}
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full table-fixed font-mono text-xs" aria-label={`Changes from ${beforeLabel} to ${afterLabel}`}>
          <colgroup>
            <col className="w-10" />
            <col />
            <col className="w-10" />
            <col />
          </colgroup>
          <thead className="bg-slate-50 text-left font-sans text-xs text-slate-500 dark:bg-slate-900/60">
            <tr>
              <th colSpan={2} className="px-2 py-1.5 font-medium">
                {beforeLabel}
              </th>
              <th colSpan={2} className="border-l border-slate-200 px-2 py-1.5 font-medium dark:border-slate-800">
                {afterLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} data-kind={row.kind}>
                <Cell side={row.left} tone={TONE[row.kind].left} mark={row.kind === "same" ? "" : "removed:"} />
                <Cell side={row.right} tone={cx(TONE[row.kind].right, "border-l border-slate-200 dark:border-slate-800")} mark={row.kind === "same" ? "" : "added:"} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
