/** The one client for the server: whitelisted methods (`/api/method`) and records (`/api/resource`). */

import { getBoot } from "./boot";
import { postWithProgress, type UploadProgress } from "./upload";

export type Dict = Record<string, unknown>;

/** An error answered by the server, with the message a person should read. */
export class ApiError extends Error {
  status: number;
  excType: string;
  messages: string[];

  constructor(message: string, status: number, excType = "", messages: string[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.excType = excType;
    this.messages = messages.length ? messages : [message];
  }
}

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

let fetchImpl: FetchLike = (input, init) => fetch(input, init);

/** Replace the transport (unit tests). */
export function setFetch(impl: FetchLike): void {
  fetchImpl = impl;
}

function stripHtml(text: string): string {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

/** The readable messages of a Frappe error body (`_server_messages`, `message`, `exception`). */
export function parseServerMessages(body: unknown): string[] {
  if (!body || typeof body !== "object") return [];
  const data = body as Dict;
  const out: string[] = [];
  if (typeof data._server_messages === "string") {
    try {
      const list = JSON.parse(data._server_messages) as unknown[];
      for (const item of list) {
        let message: unknown = item;
        if (typeof item === "string") {
          try {
            const parsed = JSON.parse(item) as unknown;
            message = parsed && typeof parsed === "object" ? (parsed as Dict).message : parsed;
          } catch {
            message = item;
          }
        }
        // frappe.throw([...], as_list=True) sends one message that is a list of messages
        for (const text of Array.isArray(message) ? message : [message]) {
          if (typeof text === "string" && text.trim()) out.push(stripHtml(text));
        }
      }
    } catch {
      /* not JSON: fall through to the other keys */
    }
  }
  if (!out.length && typeof data.message === "string" && data.message.trim()) {
    out.push(stripHtml(data.message));
  }
  if (!out.length && typeof data.exception === "string" && data.exception.trim()) {
    // "frappe.exceptions.ValidationError: text" -> "text"
    const text = data.exception.replace(/^[\w.]+(Error|Exception):\s*/, "");
    out.push(stripHtml(text));
  }
  return out;
}

const FALLBACK: Record<number, string> = {
  401: "Your session has ended. Please log in again.",
  403: "You don't have permission to do this.",
  404: "This item could not be found.",
  409: "This item was changed by someone else. Reload and try again.",
  417: "Please check the form and try again.",
  429: "Too many requests. Wait a moment and try again.",
};

async function toError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const messages = parseServerMessages(body);
  const excType = body && typeof body === "object" ? String((body as Dict).exc_type ?? "") : "";
  const message =
    messages[0] ?? FALLBACK[response.status] ?? "Something went wrong. Please try again.";
  return new ApiError(message, response.status, excType, messages);
}

function headers(json: boolean): HeadersInit {
  const h: Record<string, string> = {
    Accept: "application/json",
    "X-Frappe-CSRF-Token": getBoot().csrf_token || "",
  };
  if (json) h["Content-Type"] = "application/json";
  return h;
}

export async function request<T>(
  url: string,
  method: "GET" | "POST" | "PUT" | "DELETE",
  body?: Dict,
): Promise<T> {
  const response = await fetchImpl(url, {
    method,
    credentials: "same-origin",
    headers: headers(body !== undefined),
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw await toError(response);
  const data = (await response.json()) as Dict;
  // A method that returns None answers {} (Frappe leaves `message` out): null, never undefined.
  return ("message" in data ? data.message : "data" in data ? data.data : null) as T;
}

function query(params: Dict): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.set(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** Call a whitelisted server method; GET for reads that need no CSRF, POST otherwise. */
export function call<T>(method: string, args: Dict = {}, httpMethod: "GET" | "POST" = "POST"): Promise<T> {
  const url = `/api/method/${method}`;
  if (httpMethod === "GET") return request<T>(url + query(args), "GET");
  return request<T>(url, "POST", args);
}

export type Filters = Array<[string, string, unknown]> | Dict;

export interface ListArgs {
  fields?: string[];
  filters?: Filters;
  order_by?: string;
  limit?: number;
  start?: number;
}

const resourceUrl = (doctype: string, name?: string): string =>
  `/api/resource/${encodeURIComponent(doctype)}` + (name !== undefined ? `/${encodeURIComponent(name)}` : "");

export function getList<T = Dict>(doctype: string, args: ListArgs = {}): Promise<T[]> {
  return request<T[]>(
    resourceUrl(doctype) +
      query({
        fields: args.fields ?? ["name"],
        filters: args.filters,
        order_by: args.order_by,
        limit_page_length: args.limit ?? 100,
        limit_start: args.start,
      }),
    "GET",
  );
}

export function getDoc<T = Dict>(doctype: string, name: string): Promise<T> {
  return request<T>(resourceUrl(doctype, name), "GET");
}

export function insertDoc<T = Dict>(doctype: string, doc: Dict): Promise<T> {
  return request<T>(resourceUrl(doctype), "POST", doc);
}

export function updateDoc<T = Dict>(doctype: string, name: string, doc: Dict): Promise<T> {
  return request<T>(resourceUrl(doctype, name), "PUT", doc);
}

export function deleteDoc(doctype: string, name: string): Promise<unknown> {
  return request<unknown>(resourceUrl(doctype, name), "DELETE");
}

/** Number of records matching `filters` (frappe.client.get_count). */
export function getCount(doctype: string, filters?: Filters): Promise<number> {
  return call<number>("frappe.client.get_count", { doctype, filters: filters ?? {} }, "GET");
}

/** Run a whitelisted method of a record's controller (Frappe's run_doc_method, as a Desk form button does). */
export function runDocMethod<T = unknown>(doctype: string, name: string, method: string, args: Dict = {}): Promise<T> {
  return call<T>("run_doc_method", { dt: doctype, dn: name, method, ...(Object.keys(args).length ? { args: JSON.stringify(args) } : {}) });
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.messages.join(" ");
  if (error instanceof Error) return error.message;
  return "Something went wrong. Please try again.";
}

/** Upload `file` as a private File attached to `doctype`/`docname`; returns its file URL. `onProgress` follows the upload. */
export async function uploadFile(file: File, doctype: string, docname: string, onProgress?: (progress: UploadProgress) => void): Promise<string> {
  const form = new FormData();
  form.append("file", file, file.name);
  form.append("is_private", "1");
  form.append("doctype", doctype);
  form.append("docname", docname);
  const { status, body } = await postWithProgress("/api/method/upload_file", form, { "X-Frappe-CSRF-Token": getBoot().csrf_token, Accept: "application/json" }, onProgress);
  if (status < 200 || status >= 300) {
    const messages = parseServerMessages(body);
    throw new ApiError(messages[0] ?? "The file could not be uploaded.", status, "", messages);
  }
  return (body as { message?: { file_url?: string } } | null)?.message?.file_url ?? "";
}
