/** The client of `huf.ai.permissions_api`: users, their Huf roles, and the capability matrix. */

import { call } from "../lib/api";

const API = "huf.ai.permissions_api";

export interface Person {
  user: string;
  full_name: string;
  enabled: boolean;
  huf_role: string | null;
  last_login?: string | null;
  /** Administrator: listed, never re-roled or disabled from Huf. */
  built_in: boolean;
}

/** What an invitation gave the new user as their way in: Frappe's welcome mail, or a one-time set-password link to hand over. */
export interface Invitation {
  user: string;
  created: boolean;
  email_sent: boolean;
  set_password_link: string | null;
}

export interface HufRole {
  role_name: string;
  description: string;
  frappe_role: string | null;
  role_weight: number;
  is_system_role: boolean;
  capabilities: string[];
}

export interface Capability {
  capability: string;
  label: string;
}

type Raw = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === "string" ? value : value == null ? "" : String(value));
const flag = (value: unknown): boolean => value === true || value === 1 || value === "1";

function asList(value: unknown, key: string): Raw[] {
  if (Array.isArray(value)) return value as Raw[];
  if (value && typeof value === "object" && Array.isArray((value as Raw)[key])) return (value as Raw)[key] as Raw[];
  return [];
}

export function toPerson(raw: Raw): Person {
  return {
    user: text(raw.user ?? raw.name ?? raw.email),
    full_name: text(raw.full_name),
    enabled: flag(raw.enabled),
    huf_role: raw.huf_role ? text(raw.huf_role) : null,
    last_login: raw.last_login ? text(raw.last_login) : null,
    built_in: flag(raw.built_in),
  };
}

function capabilityNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((c) => (typeof c === "string" ? c : text((c as Raw)?.capability))).filter(Boolean);
}

export function toRole(raw: Raw): HufRole {
  return {
    role_name: text(raw.role_name ?? raw.name),
    description: text(raw.role_description ?? raw.description),
    frappe_role: raw.frappe_role ? text(raw.frappe_role) : null,
    role_weight: Number(raw.role_weight ?? 0) || 0,
    is_system_role: flag(raw.is_system_role),
    capabilities: capabilityNames(raw.capabilities ?? raw.permissions),
  };
}

/** The catalogue as [{capability, label}] in catalogue order, from a list or a {capability: label} map. */
export function toCatalogue(value: unknown): Capability[] {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === "object" && Array.isArray((value as Raw).capabilities)
      ? ((value as Raw).capabilities as unknown[])
      : null;
  if (list) {
    return list.map((c) =>
      typeof c === "string" ? { capability: c, label: c } : { capability: text((c as Raw).capability ?? (c as Raw).name), label: text((c as Raw).label ?? (c as Raw).capability) },
    );
  }
  if (value && typeof value === "object") return Object.entries(value as Raw).map(([capability, label]) => ({ capability, label: text(label) }));
  return [];
}

export const PEOPLE_KEY = ["people", "users"] as const;
export const ROLES_KEY = ["people", "roles"] as const;
export const CATALOGUE_KEY = ["people", "catalogue"] as const;

export async function getUsers(): Promise<Person[]> {
  return asList(await call<unknown>(`${API}.get_users`, {}, "GET"), "users").map(toPerson);
}

export async function getHufRoles(): Promise<HufRole[]> {
  return asList(await call<unknown>(`${API}.get_huf_roles`, {}, "GET"), "roles").map(toRole);
}

export async function getCatalogue(): Promise<Capability[]> {
  return toCatalogue(await call<unknown>(`${API}.get_capabilities_catalogue`, {}, "GET"));
}

export function toInvitation(raw: Raw): Invitation {
  return {
    user: text(raw.user),
    created: flag(raw.created),
    email_sent: flag(raw.email_sent),
    set_password_link: raw.set_password_link ? text(raw.set_password_link) : null,
  };
}

export async function inviteUser(email: string, full_name: string, huf_role: string): Promise<Invitation> {
  return toInvitation((await call<Raw>(`${API}.invite_user`, { email, full_name, huf_role })) ?? {});
}

export function updateUserRole(user: string, huf_role: string): Promise<unknown> {
  return call(`${API}.update_user_role`, { user, huf_role });
}

export function setUserEnabled(user: string, enabled: boolean): Promise<unknown> {
  return call(`${API}.set_user_enabled`, { user, enabled: enabled ? 1 : 0 });
}

export function createHufRole(role_name: string, description: string, capabilities: string[]): Promise<unknown> {
  return call(`${API}.create_huf_role`, { role_name, description, capabilities });
}

export function updateHufRole(role_name: string, capabilities: string[], description: string): Promise<unknown> {
  return call(`${API}.update_huf_role`, { role_name, capabilities, description });
}
