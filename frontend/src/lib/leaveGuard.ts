/**
 * Back / forward guard for pages with unsaved changes. BrowserRouter has no navigation blocker, and it
 * handles `popstate` in a listener of its own: this one is added when the app's code loads, before the
 * router mounts, so it runs first and can keep the router from seeing a refused navigation.
 */

let question: string | null = null;
let guardedIndex: number | undefined;
let restoring = false;

const routerIndex = (state: unknown): number | undefined => {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" ? idx : undefined;
};

/** Ask `text` before going back or forward from the current history entry (null: stop asking). */
export function guardHistory(text: string | null): void {
  question = text;
  guardedIndex = text ? routerIndex(window.history.state) : undefined;
}

/** Whether the page may replace what it shows (another record of a list, a new one): asks first while a form has unsaved changes. */
export function confirmLeave(): boolean {
  return !question || window.confirm(question);
}

function onPopState(event: PopStateEvent): void {
  if (restoring) {
    // the way back to the guarded entry: the router never saw it leave
    restoring = false;
    event.stopImmediatePropagation();
    return;
  }
  if (!question || window.confirm(question)) return;
  event.stopImmediatePropagation();
  const landed = routerIndex(event.state);
  const delta = guardedIndex !== undefined && landed !== undefined ? guardedIndex - landed : 1;
  if (delta) {
    restoring = true;
    window.history.go(delta);
  }
}

if (typeof window !== "undefined") window.addEventListener("popstate", onPopState);
