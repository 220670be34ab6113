import { afterEach, describe, expect, it } from "vitest";
import { ApiError, call, errorMessage, getList, insertDoc, parseServerMessages, setFetch, updateDoc } from "./api";

type Sent = { url: string; init: RequestInit | undefined };

function fakeServer(status: number, body: unknown): Sent[] {
  const sent: Sent[] = [];
  setFetch(async (url, init) => {
    sent.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  return sent;
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("parseServerMessages", () => {
  it("reads Frappe's _server_messages (a JSON list of JSON strings) and strips HTML", () => {
    const body = {
      exc_type: "ValidationError",
      _server_messages: JSON.stringify([JSON.stringify({ message: "Temperature must be between <b>0</b> and 2." })]),
    };
    expect(parseServerMessages(body)).toEqual(["Temperature must be between 0 and 2."]);
  });

  it("reads every message of a list thrown with as_list", () => {
    const body = { _server_messages: JSON.stringify([JSON.stringify({ message: ["Node a is bad.", "Edge <i>e1</i> is bad."], as_list: 1 })]) };
    expect(parseServerMessages(body)).toEqual(["Node a is bad.", "Edge e1 is bad."]);
  });

  it("falls back to message, then to the exception text without the class name", () => {
    expect(parseServerMessages({ message: "Plain" })).toEqual(["Plain"]);
    expect(parseServerMessages({ exception: "frappe.exceptions.DuplicateEntryError: Agent X exists" })).toEqual(["Agent X exists"]);
    expect(parseServerMessages(null)).toEqual([]);
  });
});

describe("request", () => {
  it("answers null for a method that returned None (Frappe sends {})", async () => {
    fakeServer(200, {});
    expect(await call("huf.api.orchestration.get_orchestration", { parent_run: "r1" }, "GET")).toBeNull();
  });

  it("sends the CSRF token of the boot data and JSON bodies, and returns `data` of records", async () => {
    (globalThis as { window?: unknown }).window = { huf_boot: { csrf_token: "tok-1", permissions: {}, roles: [], capabilities: [], user: "a", full_name: "a" } };
    const sent = fakeServer(200, { data: { name: "A" } });
    const doc = await insertDoc("AI Provider", { provider_name: "A" });
    expect(doc).toEqual({ name: "A" });
    expect(sent[0]?.url).toBe("/api/resource/AI%20Provider");
    expect(sent[0]?.init?.method).toBe("POST");
    const headers = sent[0]?.init?.headers as Record<string, string>;
    expect(headers["X-Frappe-CSRF-Token"]).toBe("tok-1");
    expect(JSON.parse(String(sent[0]?.init?.body))).toEqual({ provider_name: "A" });
  });

  it("returns `message` of methods and puts GET arguments in the query string as JSON", async () => {
    const sent = fakeServer(200, { message: 3 });
    expect(await call<number>("frappe.client.get_count", { doctype: "Agent", filters: { disabled: 0 } }, "GET")).toBe(3);
    const url = new URL(sent[0]?.url ?? "", "http://x");
    expect(url.pathname).toBe("/api/method/frappe.client.get_count");
    expect(url.searchParams.get("doctype")).toBe("Agent");
    expect(JSON.parse(url.searchParams.get("filters") ?? "")).toEqual({ disabled: 0 });
  });

  it("builds list queries with fields, filters and a page size", async () => {
    const sent = fakeServer(200, { data: [] });
    await getList("Agent Run", { fields: ["name", "status"], filters: [["status", "=", "Failed"]], limit: 5 });
    const url = new URL(sent[0]?.url ?? "", "http://x");
    expect(JSON.parse(url.searchParams.get("fields") ?? "")).toEqual(["name", "status"]);
    expect(JSON.parse(url.searchParams.get("filters") ?? "")).toEqual([["status", "=", "Failed"]]);
    expect(url.searchParams.get("limit_page_length")).toBe("5");
  });

  it("turns a refused save into an ApiError with the server's message and status", async () => {
    fakeServer(417, { exc_type: "ValidationError", _server_messages: JSON.stringify([JSON.stringify({ message: "Top P must be between 0 and 1." })]) });
    const error = await updateDoc("Agent", "A", { top_p: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(417);
    expect((error as ApiError).excType).toBe("ValidationError");
    expect(errorMessage(error)).toBe("Top P must be between 0 and 1.");
  });

  it("gives a plain message when the server says nothing readable", async () => {
    fakeServer(403, { exc_type: "PermissionError" });
    const error = await call("x.y").catch((e: unknown) => e);
    expect(errorMessage(error)).toBe("You don't have permission to do this.");
  });
});
