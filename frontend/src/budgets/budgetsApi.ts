import { call } from "../lib/api";

/** One budget as huf.api.budgets.list_budgets answers: its spend in the current period against its limit. */
export interface BudgetRow {
  name: string;
  scope: "Site" | "Agent" | "User";
  agent?: string | null;
  user?: string | null;
  period: "Day" | "Month";
  limit_usd: number;
  warning_percent: number;
  spend: number;
  percent: number;
  resets_at: string;
  enabled: boolean;
}

export interface KillSwitch {
  paused: boolean;
  paused_by?: string | null;
  paused_at?: string | null;
  can_change?: boolean;
}

export const BUDGETS_KEY = ["huf-budgets"];

export const budgetsApi = {
  list: () => call<{ budgets: BudgetRow[]; kill_switch: KillSwitch }>("huf.api.budgets.list_budgets", {}, "GET"),
  setPaused: (paused: boolean) => call<KillSwitch>("huf.api.budgets.set_pause_all_runs", { paused: paused ? 1 : 0 }),
};

export type BudgetTone = "ok" | "warning" | "used-up";

/** How a budget stands: used up at its limit, warning past its threshold, else ok. */
export function budgetTone(row: Pick<BudgetRow, "spend" | "limit_usd" | "percent" | "warning_percent">): BudgetTone {
  if (row.spend >= row.limit_usd) return "used-up";
  return row.percent >= (row.warning_percent || 80) ? "warning" : "ok";
}

/** The bar's width: the percent spent, between 0 and 100. */
export function barPercent(percent: number): number {
  return Math.max(0, Math.min(100, Math.round(percent)));
}

/** What a budget covers, in words. */
export function coverage(row: Pick<BudgetRow, "scope" | "agent" | "user">): string {
  if (row.scope === "Agent") return `Agent ${row.agent ?? ""}`.trim();
  if (row.scope === "User") return `User ${row.user ?? ""}`.trim();
  return "Whole site";
}
