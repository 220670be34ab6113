/** Which of an agent's tools act without an approver: the agent editor marks them. */

import { getList } from "../lib/api";

type Row = Record<string, unknown>;

/** The approval settings the agent's tool rows inherit: each tool's own Requires Approval, by tool name. */
export type ToolApprovals = Record<string, boolean>;

/**
 * Whether a call of the tool waits for an approver: the row's Always / Never, else the tool's own Requires
 * Approval (`undefined` while the tool's setting is not known, e.g. the user may not read the tool).
 */
export function asksApproval(rowSetting: unknown, toolSetting: boolean | undefined): boolean | undefined {
  if (rowSetting === "Always") return true;
  if (rowSetting === "Never") return false;
  return toolSetting;
}

/** The tools of `rows` that act without approval, in row order (those whose setting is unknown are left out). */
export function actingWithoutApproval(rows: Row[], approvals: ToolApprovals): string[] {
  return rows
    .filter((row) => asksApproval(row.requires_approval, approvals[String(row.tool)]) === false)
    .map((row) => String(row.tool));
}

/** The Requires Approval of the tools named `tools`, as the user may read them. */
export async function getToolApprovals(tools: string[]): Promise<ToolApprovals> {
  if (!tools.length) return {};
  const rows = await getList<{ name: string; requires_approval: number }>("Agent Tool Function", {
    fields: ["name", "requires_approval"],
    filters: [["name", "in", tools]],
    limit: tools.length,
  });
  return Object.fromEntries(rows.map((row) => [row.name, Boolean(row.requires_approval)]));
}
