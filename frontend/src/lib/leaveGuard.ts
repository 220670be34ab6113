/**
 * Back / forward guard for pages with unsaved changes. BrowserRouter has no navigation blocker, and it
 * handles `popstate` in a listener of its own: this one is added when the app's code loads, before the
 * router mounts, so it runs first and keeps the router from seeing a guarded navigation. The browser has
 * already moved by then: the guard goes back to the page, asks (lib/confirm.ts), and moves on again if the
 * user chooses to leave.
 */

import { askConfirm } from "./confirm";

let question: string | null = null;
let guardedIndex: number | undefined;
let restoring = false;
let asking = false;

const routerIndex = (state: unknown): number | undefined => {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" ? idx : undefined;
};

/** Ask `text` before going back or forward from the current history entry (null: stop asking). */
export function guardHistory(text: string | null): void {
  question = text;
  guardedIndex = text ? routerIndex(window.history.state) : undefined;
}

/** Ask `text` ("This agent has unsaved changes. Leave without saving?"): true when the user leaves. */
export function askLeave(text: string): Promise<boolean> {
  return askConfirm({ title: "Unsaved changes", message: text, confirmLabel: "Leave", cancelLabel: "Stay", destructive: true });
}

/** Whether the page may replace what it shows (another record of a list, a new one): asks first while a form has unsaved changes. */
export function confirmLeave(): Promise<boolean> {
  return question ? askLeave(question) : Promise.resolve(true);
}

function onPopState(event: PopStateEvent): void {
  if (restoring) {
    // the way back to the guarded entry: the router never saw it leave
    restoring = false;
    event.stopImmediatePropagation();
    return;
  }
  if (!question) return;
  const landed = routerIndex(event.state);
  const delta = guardedIndex !== undefined && landed !== undefined ? guardedIndex - landed : 1;
  if (!delta) return;
  event.stopImmediatePropagation();
  restoring = true;
  window.history.go(delta);
  if (asking) return; // the question is already on screen
  asking = true;
  void askLeave(question).then((leave) => {
    asking = false;
    if (!leave) return;
    guardHistory(null);
    window.history.go(-delta);
  });
}

if (typeof window !== "undefined") window.addEventListener("popstate", onPopState);
