/** The scale of a bar chart's value axis and the labels of its day axis (pure: tested without a browser). */

/** Round tick values from 0 to at least `max`: about `count` steps of 1, 2, 2.5 or 5 × 10^n, never
 * smaller than `minStep` (1 for counts: no "0.5 runs"). */
export function niceTicks(max: number, count = 4, minStep = 0): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, Math.max(1, minStep)];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const steps = minStep >= 1 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10]; // whole steps stay whole
  const step = Math.max(minStep, (steps.find((m) => m * power >= raw) ?? 10) * power);
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step / 2; i++) ticks.push(Number((i * step).toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2025-06-03" → "Jun 3"; anything else is returned as it is. */
export function shortDay(day: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(day);
  const month = m ? MONTHS[Number(m[1]) - 1] : undefined;
  return m && month ? `${month} ${Number(m[2])}` : day;
}

/** Show every n-th of `count` axis labels so that labels `labelWidth` wide fit bars `barWidth` wide. */
export function labelEvery(count: number, barWidth: number, labelWidth: number): number {
  if (count <= 0 || barWidth <= 0) return 1;
  return Math.max(1, Math.ceil(labelWidth / barWidth));
}
