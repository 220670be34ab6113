/**
 * The browser functions a Client Side tool may call (docs/tools.md "Client Side tools"): a few built in, and
 * any a page adds with `registerClientFunction` (or, from a script outside the dashboard's bundle,
 * `window.hufClientTools.register`). A function gets the call's arguments (from the model: treat them as
 * untrusted input) and returns anything JSON can carry; what it returns is the tool's output.
 */

export type ClientArgs = Record<string, unknown>;

/** What a function may use besides its arguments. */
export interface ClientContext {
  /** Go to a path of the dashboard (its router; the path is under /huf). */
  navigate: (path: string) => void;
  /** Run `action` once the answer reached the server (e.g. leave the page only after answering). */
  afterAnswer: (action: () => void) => void;
}

export type ClientFunction = (args: ClientArgs, context: ClientContext) => unknown;

const functions = new Map<string, ClientFunction>();

/** Add (or replace) the function `name`; the returned function removes it again. */
export function registerClientFunction(name: string, fn: ClientFunction): () => void {
  functions.set(name, fn);
  return () => {
    if (functions.get(name) === fn) functions.delete(name);
  };
}

export function getClientFunction(name: string): ClientFunction | undefined {
  return functions.get(name);
}

export function clientFunctionNames(): string[] {
  return [...functions.keys()].sort();
}

/** A dashboard path the model may send the user to: relative to /huf, no scheme, host or `..`. */
export function dashboardPath(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let path = value.trim();
  if (path.startsWith("/huf/") || path === "/huf") path = path.slice(4) || "/";
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.startsWith("//") || path.includes("\\") || /(^|\/)\.\.(\/|$)/.test(path) || /[\u0000-\u001f]/.test(path)) return null;
  return path;
}

/** Show `message` on the page for a while (text only, never markup). */
export function showNotification(message: string, title?: string): void {
  const box = document.createElement("div");
  box.setAttribute("role", "status");
  box.dataset.testid = "client-notification";
  box.className =
    "fixed right-4 top-4 z-50 max-w-sm rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";
  if (title) {
    const heading = document.createElement("p");
    heading.className = "font-semibold";
    heading.textContent = title;
    box.append(heading);
  }
  const text = document.createElement("p");
  text.textContent = message;
  box.append(text);
  document.body.append(box);
  setTimeout(() => box.remove(), 8000);
}

const BUILT_IN: Record<string, ClientFunction> = {
  /** The page the user looks at. */
  get_current_page: () => ({ url: location.href, path: location.pathname, query: location.search, hash: location.hash, title: document.title }),
  /** The browser's clock and time zone. */
  get_browser_time: () => {
    const now = new Date();
    return {
      iso: now.toISOString(),
      local: now.toString(),
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      utc_offset_minutes: -now.getTimezoneOffset(),
      language: navigator.language,
    };
  },
  /** Go to a page of the dashboard, once the answer is sent. */
  navigate: (args, context) => {
    const path = dashboardPath(args.path ?? args.url ?? args.route);
    if (!path) throw new Error("navigate needs a path of the dashboard, e.g. /agents");
    context.afterAnswer(() => context.navigate(path));
    return { navigated_to: `/huf${path === "/" ? "" : path}` };
  },
  /** A short message on the page. */
  show_notification: (args) => {
    const message = String(args.message ?? args.text ?? "").slice(0, 1000);
    if (!message) throw new Error("show_notification needs a message");
    showNotification(message, args.title ? String(args.title).slice(0, 200) : undefined);
    return { shown: true };
  },
};

for (const [name, fn] of Object.entries(BUILT_IN)) registerClientFunction(name, fn);

declare global {
  interface Window {
    hufClientTools?: { register: typeof registerClientFunction; names: typeof clientFunctionNames };
  }
}

if (typeof window !== "undefined") window.hufClientTools = { register: registerClientFunction, names: clientFunctionNames };
