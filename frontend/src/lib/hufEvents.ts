/**
 * Huf's live events (`GET /huf/events`, huf/ai/live_stream.py): one EventSource per page, shared by every
 * `useHufEvents(kind, handler)`. Pages refetch what an event names; while the stream is not connected
 * (no EventSource, the server refused it with 503, or it dropped) they poll as before (`liveInterval`).
 */

import { useEffect, useRef, useSyncExternalStore } from "react";

export type HufEventKind = "run" | "approval" | "knowledge" | "trigger" | "flow";

export interface HufEvent {
  kind: HufEventKind;
  event: string;
  message: Record<string, unknown>;
}

export const EVENTS_URL = "/huf/events";
/** After the server refused the stream (503: too many, or a server without threads), try again this much later
 * (its `Retry-After`, huf/ai/live_stream.py); the pages poll meanwhile. */
export const REFUSED_RETRY_MS = 15_000;

/** One frame's data as an event, or null when it is not one. */
export function parseHufEvent(data: string): HufEvent | null {
  try {
    const value = JSON.parse(data) as Partial<HufEvent>;
    if (!value || typeof value.kind !== "string" || typeof value.event !== "string") return null;
    const message = value.message && typeof value.message === "object" ? (value.message as Record<string, unknown>) : {};
    return { kind: value.kind as HufEventKind, event: value.event, message };
  } catch {
    return null;
  }
}

/** TanStack Query's `refetchInterval` beside the stream: `every` while it is not connected, else no polling. */
export const liveInterval = (connected: boolean, every: number | false): number | false => (connected ? false : every);

type Handler = (event: HufEvent) => void;

const handlers = new Set<{ kind: HufEventKind; handler: Handler }>();
const watchers = new Set<() => void>();
let source: EventSource | null = null;
let connected = false;
let retry: ReturnType<typeof setTimeout> | null = null;

function setConnected(next: boolean): void {
  if (connected === next) return;
  connected = next;
  watchers.forEach((notify) => notify());
}

function open(): void {
  if (source || retry || typeof window === "undefined" || typeof window.EventSource !== "function") return;
  const stream = new window.EventSource(EVENTS_URL, { withCredentials: true });
  source = stream;
  stream.onopen = () => setConnected(true);
  stream.onmessage = (frame: MessageEvent<string>) => {
    const event = parseHufEvent(frame.data);
    if (event) handlers.forEach((h) => h.kind === event.kind && h.handler(event));
  };
  stream.onerror = () => {
    setConnected(false);
    // the browser reconnects by itself after a stream ended; a refused one (503, 403) it gives up on
    if (stream.readyState === EventSource.CLOSED) {
      stream.close();
      source = null;
      retry = setTimeout(() => {
        retry = null;
        if (handlers.size) open();
      }, REFUSED_RETRY_MS);
    }
  };
}

function closeWhenUnused(): void {
  if (handlers.size) return;
  source?.close();
  source = null;
  if (retry) clearTimeout(retry);
  retry = null;
  setConnected(false);
}

/** Whether the live stream is connected now (re-renders when that changes). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (notify) => {
      watchers.add(notify);
      return () => watchers.delete(notify);
    },
    () => connected,
    () => false,
  );
}

/** Call `handler` for every live event of `kind` while the component is mounted; answers whether the stream is connected. */
export function useHufEvents(kind: HufEventKind, handler: Handler): boolean {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const entry = { kind, handler: (event: HufEvent) => latest.current(event) };
    handlers.add(entry);
    open();
    return () => {
      handlers.delete(entry);
      closeWhenUnused();
    };
  }, [kind]);
  return useLiveConnected();
}
