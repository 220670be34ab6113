/** What a node's server schema says of its settings (huf/ai/flows/nodes/schema.py): which apply, which are missing. */

import type { Dict } from "./definition";
import type { NodeSetting } from "./flowApi";

const str = (value: unknown): string => (value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value));

/** Whether a setting applies to `config` (with its defaults filled in): its `depends_on` values are met. */
export function settingApplies(setting: NodeSetting, config: Dict): boolean {
  return Object.entries(setting.depends_on ?? {}).every(([name, values]) => values.map(String).includes(str(config[name])));
}

/** `config` with each empty setting's default. */
export function withDefaults(settings: NodeSetting[], config: Dict): Dict {
  return { ...Object.fromEntries(settings.filter((s) => s.default !== undefined).map((s) => [s.name, s.default])), ...config };
}

/** The required settings that apply and are empty (a default fills an empty one). */
export function schemaProblems(settings: NodeSetting[], config: Dict): Map<string, string> {
  const problems = new Map<string, string>();
  const filled = withDefaults(settings, config);
  for (const setting of settings) {
    if (!setting.required || setting.default !== undefined || !settingApplies(setting, filled)) continue;
    if (!str(config[setting.name]).trim()) problems.set(setting.name, `${setting.label} is required.`);
  }
  return problems;
}
