import { afterEach, describe, expect, it } from "vitest";
import { ApiError, errorMessage, setFetch } from "../lib/api";
import { NAV } from "../components/Layout";
import { createHufRole, getCatalogue, getHufRoles, getUsers, inviteUser, setUserEnabled, toCatalogue, updateHufRole, updateUserRole } from "./peopleApi";

type Sent = { url: string; init: RequestInit | undefined };

function fakeServer(status: number, body: unknown): Sent[] {
  const sent: Sent[] = [];
  setFetch(async (url, init) => {
    sent.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  return sent;
}

const posted = (sent: Sent[]) => JSON.parse(String(sent[0]?.init?.body));

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("the people API client", () => {
  it("reads users, with enabled as a boolean", async () => {
    const sent = fakeServer(200, { message: [{ name: "a@example.com", full_name: "Ann", enabled: 1, huf_role: "Huf User" }, { user: "b@example.com", enabled: 0 }] });
    const users = await getUsers();
    expect(sent[0]?.url).toBe("/api/method/huf.ai.permissions_api.get_users");
    expect(sent[0]?.init?.method).toBe("GET");
    expect(users).toEqual([
      { user: "a@example.com", full_name: "Ann", enabled: true, huf_role: "Huf User", last_login: null, built_in: false },
      { user: "b@example.com", full_name: "", enabled: false, huf_role: null, last_login: null, built_in: false },
    ]);
  });

  it("marks Administrator built in and reads an invitation's way in", async () => {
    fakeServer(200, { message: [{ name: "Administrator", full_name: "Administrator", enabled: 1, built_in: true }] });
    expect((await getUsers())[0]?.built_in).toBe(true);
    fakeServer(200, { message: { user: "n@example.com", created: true, email_sent: false, set_password_link: "http://site/update-password?key=abc" } });
    expect(await inviteUser("n@example.com", "", "Huf User")).toEqual({ user: "n@example.com", created: true, email_sent: false, set_password_link: "http://site/update-password?key=abc" });
    fakeServer(200, { message: { user: "m@example.com", created: true, email_sent: 1, set_password_link: null } });
    expect(await inviteUser("m@example.com", "", "Huf User")).toMatchObject({ email_sent: true, set_password_link: null });
  });

  it("reads roles with their capabilities as names", async () => {
    fakeServer(200, { message: [{ role_name: "Huf Viewer", role_description: "Reads", role_weight: 10, is_system_role: 1, capabilities: ["agent.view", { capability: "chat.view_own" }] }] });
    const [role] = await getHufRoles();
    expect(role).toEqual({ role_name: "Huf Viewer", description: "Reads", frappe_role: null, role_weight: 10, is_system_role: true, capabilities: ["agent.view", "chat.view_own"] });
  });

  it("reads the catalogue as a list or as a map, in order", async () => {
    fakeServer(200, { message: { "agent.view": "See agents", "roles.manage": "Manage roles" } });
    expect(await getCatalogue()).toEqual([
      { capability: "agent.view", label: "See agents" },
      { capability: "roles.manage", label: "Manage roles" },
    ]);
    expect(toCatalogue([{ capability: "a.b", label: "AB" }, "c.d"])).toEqual([
      { capability: "a.b", label: "AB" },
      { capability: "c.d", label: "c.d" },
    ]);
  });

  it("posts each change with the server's argument names", async () => {
    let sent = fakeServer(200, { message: {} });
    await inviteUser("n@example.com", "New One", "Huf User");
    expect(sent[0]?.url).toBe("/api/method/huf.ai.permissions_api.invite_user");
    expect(sent[0]?.init?.method).toBe("POST");
    expect(posted(sent)).toEqual({ email: "n@example.com", full_name: "New One", huf_role: "Huf User" });
    sent = fakeServer(200, { message: {} });
    await updateUserRole("n@example.com", "Huf Manager");
    expect(posted(sent)).toEqual({ user: "n@example.com", huf_role: "Huf Manager" });
    sent = fakeServer(200, { message: {} });
    await setUserEnabled("n@example.com", false);
    expect(posted(sent)).toEqual({ user: "n@example.com", enabled: 0 });
    sent = fakeServer(200, { message: {} });
    await createHufRole("Auditor", "Reads runs", ["agent.view"]);
    expect(posted(sent)).toEqual({ role_name: "Auditor", description: "Reads runs", capabilities: ["agent.view"] });
    sent = fakeServer(200, { message: {} });
    await updateHufRole("Auditor", ["agent.view", "chat.view_all"], "Reads");
    expect(sent[0]?.url).toBe("/api/method/huf.ai.permissions_api.update_huf_role");
    expect(posted(sent)).toEqual({ role_name: "Auditor", capabilities: ["agent.view", "chat.view_all"], description: "Reads" });
  });

  it("passes on the server's refusal, naming the missing capability", async () => {
    fakeServer(403, {
      exc_type: "PermissionError",
      _server_messages: JSON.stringify([JSON.stringify({ message: "You need the capability users.manage to do this." })]),
    });
    const error = await updateUserRole("n@example.com", "Huf Admin").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(errorMessage(error)).toBe("You need the capability users.manage to do this.");
  });
});

describe("navigation from capabilities", () => {
  const visible = (capabilities: string[]) => {
    (globalThis as { window?: unknown }).window = { huf_boot: { user: "u", full_name: "", roles: [], capabilities, permissions: {}, csrf_token: "" } };
    return NAV.filter((item) => item.visible()).map((item) => item.label);
  };

  it("shows Users to whoever may invite or manage users, and Roles only with roles.manage", () => {
    expect(visible(["agent.view"])).not.toContain("Users");
    expect(visible(["users.invite"])).toContain("Users");
    expect(visible(["users.manage"])).toContain("Users");
    expect(visible(["users.invite"])).not.toContain("Roles");
    expect(visible(["roles.manage"])).toContain("Roles");
  });
});
