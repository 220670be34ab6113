import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NavLink, Outlet } from "react-router-dom";
import { fetchPendingApprovals, PENDING_APPROVALS_KEY } from "../flows/pendingApprovals";
import { call } from "../lib/api";
import { can, getBoot, hasCapability } from "../lib/boot";
import { applyTheme, initialTheme, type Theme } from "../lib/theme";
import { cx } from "./ui";

interface NavItem {
  to: string;
  label: string;
  visible: () => boolean;
  /** Shows the number of flow runs waiting for the user's approval (and the entry whenever there are some). */
  approvals?: boolean;
}

/** Navigation: an entry shows only when the user's roles let them open it. */
export const NAV: NavItem[] = [
  { to: "/", label: "Dashboard", visible: () => true },
  { to: "/agents", label: "Agents", visible: () => can("Agent") },
  { to: "/prompts", label: "Prompts", visible: () => can("Agent Prompt") },
  { to: "/chat", label: "Chat", visible: () => can("Agent Conversation") },
  { to: "/triggers", label: "Triggers", visible: () => can("Agent Trigger") },
  { to: "/executions", label: "Executions", visible: () => can("Agent Run") },
  { to: "/flows", label: "Flows", visible: () => can("Flow Definition") },
  { to: "/approvals", label: "Approvals", visible: () => can("Flow Run"), approvals: true },
  { to: "/tools", label: "Tools", visible: () => can("Agent Tool Function") },
  { to: "/mcp", label: "MCP servers", visible: () => can("MCP Server") },
  { to: "/knowledge", label: "Knowledge", visible: () => can("Knowledge Source") },
  { to: "/data", label: "Data", visible: () => ["data.records.view_own", "data.records.view_all", "data.tables.manage"].some((c) => hasCapability(c)) },
  { to: "/integrations", label: "Integrations", visible: () => hasCapability("system.integrations.manage") },
  { to: "/providers", label: "Providers", visible: () => can("AI Provider") },
  { to: "/models", label: "Models", visible: () => can("AI Model") },
  { to: "/settings", label: "Settings", visible: () => can("Agent Settings") },
  { to: "/users", label: "Users", visible: () => hasCapability("users.invite") || hasCapability("users.manage") },
  { to: "/roles", label: "Roles", visible: () => hasCapability("roles.manage") },
];

export function Layout() {
  const boot = getBoot();
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const pending = useQuery({ queryKey: PENDING_APPROVALS_KEY, queryFn: fetchPendingApprovals, refetchInterval: 60_000, retry: false });
  const waiting = pending.data?.length ?? 0;
  useEffect(() => applyTheme(theme), [theme]);

  const logout = async () => {
    try {
      await call("logout", {}, "POST");
    } finally {
      window.location.href = "/login?redirect-to=/huf";
    }
  };

  return (
    <div className="flex min-h-screen">
      <aside className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="px-4 py-4 text-lg font-bold tracking-tight">Huf</div>
        <nav aria-label="Main" className="flex-1 space-y-0.5 px-2">
          {NAV.filter((item) => item.visible() || (item.approvals && waiting > 0)).map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.to === "/"}
              className={({ isActive }) =>
                cx(
                  "block rounded-md px-3 py-1.5 text-sm",
                  isActive
                    ? "bg-indigo-50 font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
                    : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
                )
              }
            >
              {item.label}
              {item.approvals && waiting > 0 && (
                <span className="ml-2 rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-white" aria-label={`${waiting} waiting`} data-testid="approvals-count">
                  {waiting}
                </span>
              )}
            </NavLink>
          ))}
        </nav>
        <div className="space-y-2 border-t border-slate-200 p-3 text-sm dark:border-slate-800">
          <div className="truncate font-medium" title={boot.user}>
            {boot.full_name || boot.user}
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              className="rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
              aria-label={theme === "dark" ? "Switch to light theme" : "Switch to dark theme"}
            >
              {theme === "dark" ? "Light theme" : "Dark theme"}
            </button>
            <button
              type="button"
              className="rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              onClick={() => void logout()}
            >
              Log out
            </button>
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 p-6">
        <Outlet />
      </main>
    </div>
  );
}
