/**
 * Huf's live events, one connection per page shared by every `useHufEvents(kind, handler)`: Frappe's socket.io
 * server where the site has one (a bench: `lib/liveSocket.ts`), otherwise Huf's own stream (`GET /huf/events`,
 * huf/ai/live_stream.py; Frappe Lite, or a bench whose socket.io server does not answer). Pages refetch what
 * an event names; while neither is connected (the server refused the stream with 503, or it dropped) they
 * poll as before (`liveInterval`). The transport in use is on `<html data-huf-live>`.
 */

import { useEffect, useRef, useSyncExternalStore } from "react";
import { getBoot } from "./boot";
import { connectSocket, socketUrls, type LiveSocket } from "./liveSocket";

export type HufEventKind = "run" | "approval" | "knowledge" | "trigger" | "flow" | "client";
export type LiveTransport = "socket.io" | "sse";

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
let socket: LiveSocket | null = null;
/** set once the site's socket.io server did not answer: this page uses the stream from then on */
let socketUnavailable = false;
let connected = false;
let retry: ReturnType<typeof setTimeout> | null = null;
/** documents whose rooms the pages follow (socket.io only: the stream checks every document itself), counted */
const docRooms = new Map<string, number>();

function setConnected(next: boolean, transport?: LiveTransport): void {
  if (transport && typeof document !== "undefined") document.documentElement.dataset.hufLive = transport;
  if (connected === next) return;
  connected = next;
  watchers.forEach((notify) => notify());
}

function dispatch(event: HufEvent): void {
  handlers.forEach((h) => h.kind === event.kind && h.handler(event));
}

function open(): void {
  if (typeof window === "undefined" || socket || source || retry) return;
  const boot = getBoot();
  const realtime = boot.realtime;
  if (realtime?.socketio_port && !socketUnavailable && boot.site_name) {
    const kinds = realtime.events;
    socket = connectSocket(socketUrls(window.location, boot.site_name, realtime.socketio_port), Object.keys(kinds), {
      onEvent: (event, message) => dispatch({ kind: kinds[event] as HufEventKind, event, message }),
      onState: (next) => setConnected(next, "socket.io"),
      onUnavailable: () => {
        socket = null;
        socketUnavailable = true;
        if (handlers.size) open();
      },
    });
    docRooms.forEach((_, key) => socket?.subscribe(...splitRoom(key)));
    return;
  }
  openStream();
}

function openStream(): void {
  if (typeof window.EventSource !== "function") return;
  const stream = new window.EventSource(EVENTS_URL, { withCredentials: true });
  source = stream;
  stream.onopen = () => setConnected(true, "sse");
  stream.onmessage = (frame: MessageEvent<string>) => {
    const event = parseHufEvent(frame.data);
    if (event) dispatch(event);
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
  socket?.close();
  socket = null;
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

const splitRoom = (key: string) => key.split("\u0000", 2) as [string, string];

/**
 * Follow the live events of these documents (e.g. the Knowledge Sources on a page) while mounted. Over
 * socket.io a document's events reach only the sockets that joined its room (Frappe checks read permission
 * there); Huf's stream checks each document itself and needs nothing.
 */
export function useLiveDocs(doctype: string, names: string[]): void {
  const key = names.join("\u0000");
  useEffect(() => {
    const keys = key ? key.split("\u0000").map((name) => `${doctype}\u0000${name}`) : [];
    for (const room of keys) {
      const count = docRooms.get(room) ?? 0;
      docRooms.set(room, count + 1);
      if (!count) socket?.subscribe(...splitRoom(room));
    }
    return () => {
      for (const room of keys) {
        const count = (docRooms.get(room) ?? 1) - 1;
        if (count > 0) docRooms.set(room, count);
        else {
          docRooms.delete(room);
          socket?.unsubscribe(...splitRoom(room));
        }
      }
    };
  }, [doctype, key]);
}
