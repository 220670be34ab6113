/** The report of "Seed from apps" (huf.ai.app_seeding.seeder.seed_all_apps) in plain words. */

export interface SeedCounts {
  created?: number;
  updated?: number;
  unchanged?: number;
}

export interface SeedError {
  app?: string;
  file?: string;
  key?: string;
  error?: string;
}

export interface SeedReport extends SeedCounts {
  errors?: SeedError[];
  kinds?: Record<string, SeedCounts>;
}

const n = (value: unknown): number => Number(value ?? 0) || 0;

/** "2 created, 1 updated, 5 unchanged." */
export function countsText(c: SeedCounts): string {
  return `${n(c.created)} created, ${n(c.updated)} updated, ${n(c.unchanged)} unchanged.`;
}

/** One line per kind that has records: ["Prompts: 1 created, 0 updated, 2 unchanged.", ...]. */
export function kindLines(report: SeedReport): string[] {
  return Object.entries(report.kinds ?? {})
    .filter(([, c]) => n(c.created) + n(c.updated) + n(c.unchanged) > 0)
    .map(([kind, c]) => `${kind.charAt(0).toUpperCase()}${kind.slice(1)}: ${countsText(c)}`);
}

/** "my_app · huf/agents/x.json · key support_bot: Model is required" */
export function errorLine(e: SeedError): string {
  const where = [e.app, e.file, e.key ? `key ${e.key}` : ""].filter(Boolean).join(" · ");
  return where ? `${where}: ${e.error ?? "failed"}` : e.error ?? "failed";
}
