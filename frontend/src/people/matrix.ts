/** The capability matrix of the Roles page: capabilities grouped by area, and edits to a role's set. */

import type { Capability } from "./peopleApi";

export interface Area {
  key: string;
  label: string;
  capabilities: Capability[];
}

const AREA_LABELS: Record<string, string> = {
  agent: "Agents",
  chat: "Chat",
  knowledge: "Knowledge",
  tools: "Tools",
  flows: "Flows",
  system: "System",
  data: "Data",
  users: "Users",
  roles: "Roles",
};

/** The area of a capability: the part before its first dot ("system.models.manage" -> "system"). */
export function areaOf(capability: string): string {
  return capability.split(".")[0] ?? capability;
}

export function areaLabel(key: string): string {
  return AREA_LABELS[key] ?? key.charAt(0).toUpperCase() + key.slice(1);
}

/** The catalogue grouped by area, areas and capabilities in catalogue order. */
export function groupByArea(catalogue: Capability[]): Area[] {
  const areas = new Map<string, Area>();
  for (const item of catalogue) {
    const key = areaOf(item.capability);
    let area = areas.get(key);
    if (!area) {
      area = { key, label: areaLabel(key), capabilities: [] };
      areas.set(key, area);
    }
    area.capabilities.push(item);
  }
  return [...areas.values()];
}

/** `granted` with `capability` switched on or off, kept in catalogue order. */
export function toggle(granted: string[], capability: string, on: boolean, catalogue: Capability[]): string[] {
  const set = new Set(granted);
  if (on) set.add(capability);
  else set.delete(capability);
  return catalogue.map((c) => c.capability).filter((c) => set.has(c));
}

/** Whether two capability sets differ (order does not matter). */
export function differs(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return true;
  const set = new Set(a);
  return b.some((c) => !set.has(c));
}

/**
 * Why a checkbox cannot be changed, or null when it can. Nobody grants or takes away a capability
 * they do not hold; the server checks this again.
 */
export function lockReason(capability: string, held: string[]): string | null {
  return held.includes(capability) ? null : `You do not hold ${capability}, so you cannot grant or remove it.`;
}
