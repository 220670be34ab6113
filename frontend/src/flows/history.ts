/** Undo and redo of canvas edits: a bounded list of snapshots. */

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** Edits with the same key in a row (typing in one field) make one undo step. */
  lastKey?: string;
}

export const HISTORY_LIMIT = 100;

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/** Record `next` as the new present; with the same `key` as the last edit it replaces that edit. */
export function record<T>(history: History<T>, next: T, key?: string): History<T> {
  if (next === history.present) return history;
  if (key !== undefined && key === history.lastKey) return { ...history, present: next, future: [] };
  const past = [...history.past, history.present].slice(-HISTORY_LIMIT);
  return { past, present: next, future: [], lastKey: key };
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past[history.past.length - 1];
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}

export const canUndo = <T,>(history: History<T>): boolean => history.past.length > 0;
export const canRedo = <T,>(history: History<T>): boolean => history.future.length > 0;
