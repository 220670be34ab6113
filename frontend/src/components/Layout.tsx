import { useQuery } from "@tanstack/react-query";
import {
  Activity,
  Bot,
  BookOpen,
  Boxes,
  Cpu,
  Database,
  FileText,
  LayoutDashboard,
  LogOut,
  Menu,
  MessagesSquare,
  Plug,
  Server,
  Settings,
  ShieldCheck,
  UserCog,
  Users,
  Wallet,
  Workflow,
  Wrench,
  X,
  Zap,
  type LucideIcon,
} from "lucide-react";
import { useEffect } from "react";
import { NavLink, Outlet, useLocation } from "react-router-dom";
import { fetchPendingToolApprovals, TOOL_APPROVALS_KEY } from "../approvals/toolApprovals";
import { useLiveApprovals } from "../approvals/liveApprovals";
import { fetchPendingApprovals, fetchPendingInputs, PENDING_APPROVALS_KEY, PENDING_INPUTS_KEY } from "../flows/pendingApprovals";
import { call } from "../lib/api";
import { can, getBoot, hasCapability } from "../lib/boot";
import { liveInterval } from "../lib/hufEvents";
import { pageTitle } from "./pageTitle";
import { ThemeControl } from "./ThemeControl";
import { cx } from "./ui";
import { useDrawer } from "./useDrawer";
import { useRouteFocus } from "./useRouteFocus";

/** The headings the navigation is grouped under (Dashboard stands above them). */
export const NAV_GROUPS = ["Build", "Run", "Data", "Admin"] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  visible: () => boolean;
  /** The heading it is listed under; none for Dashboard, at the top. */
  group?: NavGroup;
  /** Shows the number of tool calls and flow runs waiting for the user's approval (and the entry whenever there are some). */
  approvals?: boolean;
}

/** Navigation: an entry shows only when the user's roles let them open it; grouped by what one does there. */
export const NAV: NavItem[] = [
  { to: "/", label: "Dashboard", icon: LayoutDashboard, visible: () => true },
  { to: "/agents", label: "Agents", icon: Bot, visible: () => can("Agent"), group: "Build" },
  { to: "/prompts", label: "Prompts", icon: FileText, visible: () => can("Agent Prompt"), group: "Build" },
  { to: "/tools", label: "Tools", icon: Wrench, visible: () => can("Agent Tool Function"), group: "Build" },
  { to: "/mcp", label: "MCP servers", icon: Server, visible: () => can("MCP Server"), group: "Build" },
  { to: "/flows", label: "Flows", icon: Workflow, visible: () => can("Flow Definition"), group: "Build" },
  { to: "/triggers", label: "Triggers", icon: Zap, visible: () => can("Agent Trigger"), group: "Build" },
  { to: "/chat", label: "Chat", icon: MessagesSquare, visible: () => can("Agent Conversation"), group: "Run" },
  { to: "/executions", label: "Executions", icon: Activity, visible: () => can("Agent Run"), group: "Run" },
  { to: "/approvals", label: "Approvals", icon: ShieldCheck, visible: () => can("Flow Run") || hasCapability("tools.approve"), approvals: true, group: "Run" },
  { to: "/knowledge", label: "Knowledge", icon: BookOpen, visible: () => can("Knowledge Source"), group: "Data" },
  { to: "/data", label: "Data", icon: Database, visible: () => ["data.records.view_own", "data.records.view_all", "data.tables.manage"].some((c) => hasCapability(c)), group: "Data" },
  { to: "/providers", label: "Providers", icon: Boxes, visible: () => can("AI Provider"), group: "Admin" },
  { to: "/models", label: "Models", icon: Cpu, visible: () => can("AI Model"), group: "Admin" },
  { to: "/integrations", label: "Integrations", icon: Plug, visible: () => hasCapability("system.integrations.manage"), group: "Admin" },
  { to: "/budgets", label: "Budgets", icon: Wallet, visible: () => can("Huf Budget"), group: "Admin" },
  { to: "/settings", label: "Settings", icon: Settings, visible: () => can("Agent Settings"), group: "Admin" },
  { to: "/users", label: "Users", icon: Users, visible: () => hasCapability("users.invite") || hasCapability("users.manage"), group: "Admin" },
  { to: "/roles", label: "Roles", icon: UserCog, visible: () => hasCapability("roles.manage"), group: "Admin" },
];

/** The visible entries in sections: Dashboard (no heading) first, then each group that has an entry. */
export function navSections(shown: (item: NavItem) => boolean): { group?: NavGroup; items: NavItem[] }[] {
  const items = NAV.filter(shown);
  const top = { items: items.filter((item) => !item.group) };
  const groups = NAV_GROUPS.map((group) => ({ group, items: items.filter((item) => item.group === group) }));
  return [top, ...groups].filter((section) => section.items.length > 0);
}

const LOGO = "/assets/huf/images/huf-logo.svg";

function Brand() {
  return (
    <span className="flex items-center gap-2 text-lg font-bold tracking-tight">
      <img src={LOGO} alt="" width={24} height={24} />
      Huf
    </span>
  );
}

/** The page title in the browser tab follows the route (one table: pageTitle.ts). */
function usePageTitle(pathname: string) {
  useEffect(() => {
    document.title = pageTitle(pathname);
  }, [pathname]);
}

function focusMain() {
  document.getElementById("main")?.focus();
}

export function Layout() {
  const boot = getBoot();
  const location = useLocation();
  const drawer = useDrawer(location.pathname);
  const connected = useLiveApprovals(); // the count follows live events; polled while the stream is not connected
  const pending = useQuery({ queryKey: PENDING_APPROVALS_KEY, queryFn: fetchPendingApprovals, refetchInterval: liveInterval(connected, 60_000), retry: false });
  // tool calls only for those who may decide them (tools.approve): nobody else has any to see
  const tools = useQuery({ queryKey: TOOL_APPROVALS_KEY, queryFn: fetchPendingToolApprovals, refetchInterval: liveInterval(connected, 60_000), retry: false, enabled: hasCapability("tools.approve") });
  const inputs = useQuery({ queryKey: PENDING_INPUTS_KEY, queryFn: fetchPendingInputs, refetchInterval: 60_000, retry: false });
  const waiting = (pending.data?.length ?? 0) + (tools.data?.length ?? 0) + (inputs.data?.length ?? 0);
  usePageTitle(location.pathname);
  useRouteFocus(location.pathname); // after useDrawer: a link followed in the drawer ends on the new page's h1

  const logout = async () => {
    try {
      await call("logout", {}, "POST");
    } finally {
      window.location.href = "/login?redirect-to=/huf";
    }
  };

  return (
    <div className="min-h-screen md:flex">
      <a
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          focusMain();
        }}
        className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex h-[--huf-topbar] items-center gap-2 border-b border-slate-200 bg-white px-3 dark:border-slate-800 dark:bg-slate-900 md:hidden">
        <button
          ref={drawer.openerRef}
          type="button"
          className="rounded-md p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
          aria-label="Open menu"
          aria-expanded={drawer.open}
          aria-controls="huf-sidebar"
          onClick={drawer.show}
        >
          <Menu size={20} aria-hidden="true" />
        </button>
        <Brand />
      </header>
      {drawer.open && <div className="fixed inset-0 z-40 bg-slate-900/50 md:hidden" aria-hidden="true" onClick={() => drawer.hide()} />}
      <aside
        id="huf-sidebar"
        ref={drawer.panelRef}
        role={drawer.open ? "dialog" : undefined}
        aria-modal={drawer.open || undefined}
        aria-label={drawer.open ? "Menu" : undefined}
        onKeyDown={drawer.onKeyDown}
        className={cx(
          "fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col border-r border-slate-200 bg-white transition-transform dark:border-slate-800 dark:bg-slate-900",
          "md:visible md:sticky md:top-0 md:z-auto md:h-screen md:w-56 md:shrink-0 md:translate-x-0",
          drawer.open ? "translate-x-0" : "invisible -translate-x-full",
        )}
      >
        <div className="flex items-center justify-between px-4 py-3">
          <Brand />
          <button
            type="button"
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 md:hidden"
            aria-label="Close menu"
            onClick={() => drawer.hide()}
          >
            <X size={18} aria-hidden="true" />
          </button>
        </div>
        <nav aria-label="Main" className="flex-1 space-y-3 overflow-y-auto px-2 pb-2">
          {navSections((item) => item.visible() || Boolean(item.approvals && waiting > 0)).map((section) => {
            const headingId = section.group ? `nav-group-${section.group.toLowerCase()}` : undefined;
            return (
              <div key={section.group ?? "top"} role={section.group ? "group" : undefined} aria-labelledby={headingId} className="space-y-0.5">
                {section.group && (
                  <p id={headingId} className="px-3 pb-0.5 pt-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
                    {section.group}
                  </p>
                )}
                {section.items.map((item) => (
                  <NavLink
                    key={item.to}
                    to={item.to}
                    end={item.to === "/"}
                    className={({ isActive }) =>
                      cx(
                        "flex items-center gap-2.5 rounded-md px-3 py-2 text-sm focus-visible:outline-offset-[-2px] md:py-1.5",
                        isActive
                          ? "bg-indigo-50 font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200"
                          : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
                      )
                    }
                  >
                    <item.icon size={16} aria-hidden="true" className="shrink-0 opacity-80" />
                    {item.label}
                    {item.approvals && waiting > 0 && (
                      <span className="ml-auto rounded-full bg-amber-700 px-1.5 text-xs font-semibold text-white" aria-label={`${waiting} waiting`} data-testid="approvals-count">
                        {waiting}
                      </span>
                    )}
                  </NavLink>
                ))}
              </div>
            );
          })}
        </nav>
        <div className="space-y-2 border-t border-slate-200 p-3 text-sm dark:border-slate-800">
          <div className="truncate font-medium" title={boot.user}>
            {boot.full_name || boot.user}
          </div>
          <div className="flex flex-wrap items-center gap-1">
            <ThemeControl />
            <button
              type="button"
              className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              onClick={() => void logout()}
            >
              <LogOut size={14} aria-hidden="true" />
              Log out
            </button>
          </div>
        </div>
      </aside>
      <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none md:p-6">
        <Outlet />
      </main>
    </div>
  );
}
