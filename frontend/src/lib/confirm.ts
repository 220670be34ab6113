/**
 * The one way the dashboard asks "are you sure?": askConfirm() (or useConfirm() in a component) shows the
 * ConfirmDialog that ConfirmHost (mounted once, in App) renders, and resolves true (confirmed) or false
 * (cancelled, Escape). Questions asked while one is open wait their turn.
 */

import type { ReactNode } from "react";

export interface ConfirmOptions {
  /** The question, short: "Delete agent "Support bot"?" */
  title: string;
  /** What happens, in a sentence or two (a string keeps its line breaks). */
  message?: ReactNode;
  /** The confirming button's label (default "OK"). */
  confirmLabel?: string;
  /** The cancelling button's label (default "Cancel"). */
  cancelLabel?: string;
  /** The confirming button deletes or discards something: styled as a danger, and focus starts on Cancel. */
  destructive?: boolean;
}

export interface PendingConfirm extends ConfirmOptions {
  id: number;
  resolve: (confirmed: boolean) => void;
}

let queue: PendingConfirm[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

const emit = () => listeners.forEach((listener) => listener());

/** Ask `options.title`; resolves true when the user confirms, false when they cancel. */
export function askConfirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    queue = [...queue, { ...options, id: nextId++, resolve }];
    emit();
  });
}

/** The question on screen (the first one asked that is not answered yet). */
export const currentConfirm = (): PendingConfirm | null => queue[0] ?? null;

/** Answer the question on screen. */
export function answerConfirm(id: number, confirmed: boolean): void {
  const pending = queue.find((q) => q.id === id);
  if (!pending) return;
  queue = queue.filter((q) => q.id !== id);
  emit();
  pending.resolve(confirmed);
}

/** Follow the question on screen (for useSyncExternalStore). */
export function subscribeConfirm(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The promise-style confirm for components: `if (await confirm({ title, destructive: true })) remove()`. */
export function useConfirm(): (options: ConfirmOptions) => Promise<boolean> {
  return askConfirm;
}
