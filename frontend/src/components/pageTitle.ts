/** The browser tab's title of each dashboard page, from its route: "Agents · Huf", "New agent · Huf"... */

const APP = "Huf";

/** By the first part of the path under /huf ("" is the dashboard). */
const SECTIONS = new Map<string, string>(Object.entries({
  "": "Dashboard",
  agents: "Agents",
  prompts: "Prompts",
  "summary-prompts": "Summary prompts",
  chat: "Chat",
  triggers: "Triggers",
  evals: "Evals",
  executions: "Executions",
  flows: "Flows",
  approvals: "Approvals",
  tools: "Tools",
  mcp: "MCP servers",
  knowledge: "Knowledge",
  data: "Data",
  integrations: "Integrations",
  providers: "Providers",
  models: "Models",
  budgets: "Budgets",
  settings: "Settings",
  users: "Users",
  roles: "Roles",
  view: "Shared message",
  "flow-runs": "Flow runs",
}));

/** Pages that are not their section's list: "<first>/<second>" (":any" for any second part), or
 * "<first>/<second>/:any" for pages one level deeper. */
const PAGES = new Map<string, string>(Object.entries({
  "agents/new": "New agent",
  "agents/:any": "Agent",
  "tools/new": "New tool",
  "tools/:any": "Tool",
  "executions/:any": "Run",
  "flow-runs/:any": "Flow run",
  "flows/:any": "Flow editor",
  "data/new": "New table",
}));

/** The title of the page at `pathname` (with or without the /huf prefix); unknown paths are "Page not found". */
export function pageTitle(pathname: string): string {
  const parts = pathname.replace(/^\/huf(?=\/|$)/, "").split("/").filter(Boolean);
  const [first = "", second, third] = parts;
  const section = SECTIONS.get(first);
  if (section === undefined) return `Page not found · ${APP}`;
  const deeper = third === undefined ? undefined : PAGES.get(`${first}/${second}/:any`);
  const page = second === undefined ? undefined : (deeper ?? PAGES.get(`${first}/${second}`) ?? PAGES.get(`${first}/:any`));
  return `${page ?? section} · ${APP}`;
}
