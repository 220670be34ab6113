/** Boot data written into the page by the server (huf/www/huf.py). */

import type { SocketRealtime } from "./liveSocket";

export type Ptype = "read" | "write" | "create" | "delete";

export interface BootData {
  user: string;
  full_name: string;
  roles: string[];
  capabilities: string[];
  permissions: Record<string, Partial<Record<Ptype, boolean>>>;
  csrf_token: string;
  site_name?: string;
  version?: string;
  /** The server's time when the page was made ("YYYY-MM-DD HH:MM:SS.ffffff", its own time zone). */
  server_now?: string;
  /** Frappe's socket.io server of the site, when it has one (a bench), and Huf's event names on it */
  realtime?: SocketRealtime;
  /** The document events Frappe fires that triggers and flows may start on (huf/huf/doc_events.py). */
  doc_events?: string[];
  /** The field types a data table's columns may have (huf/huf/data_tables/fields.py). */
  data_field_types?: string[];
  /** The tool kinds whose new tools start asking an approver for each call (huf/huf/tool_approval_defaults.py). */
  approval_kinds?: string[];
}

declare global {
  interface Window {
    huf_boot?: BootData;
  }
}

const EMPTY: BootData = {
  user: "Guest",
  full_name: "Guest",
  roles: [],
  capabilities: [],
  permissions: {},
  csrf_token: "",
};

export function getBoot(): BootData {
  return (typeof window !== "undefined" && window.huf_boot) || EMPTY;
}

/** Whether the signed-in user may `ptype` records of `doctype` (as the server reported at load). */
export function can(doctype: string, ptype: Ptype = "read", boot: BootData = getBoot()): boolean {
  return Boolean(boot.permissions[doctype]?.[ptype]);
}

export function hasCapability(capability: string, boot: BootData = getBoot()): boolean {
  return boot.capabilities.includes(capability);
}

/** The document events triggers and flows may start on, as the server sent them. */
export function docEvents(boot: BootData = getBoot()): string[] {
  return boot.doc_events ?? [];
}

/** The field types a data table's columns may have, as the server sent them. */
export function dataFieldTypes(boot: BootData = getBoot()): string[] {
  return boot.data_field_types ?? [];
}

/** The tool kinds whose new tools start with Requires approval ticked, as the server sent them. */
export function approvalKinds(boot: BootData = getBoot()): string[] {
  return boot.approval_kinds ?? [];
}
