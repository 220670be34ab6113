/**
 * Frappe's socket.io realtime server (on a bench: `node apps/frappe/realtime`, behind nginx at `/socket.io` in
 * production, on its own port under `bench start`) as the transport of Huf's live events. Frappe puts every
 * signed-in socket in its user's room; a document's room is joined with `doc_subscribe`, which the server
 * allows only to users who may read that document.
 */

import { io, type Socket } from "socket.io-client";

export interface SocketRealtime {
  /** `socketio_port` of the site's config: where the server listens when no proxy serves `/socket.io`. */
  socketio_port?: number | null;
  /** Huf's event names and the dashboard kind each belongs to (huf/ai/live_events.py KINDS). */
  events: Record<string, string>;
}

/** The addresses to try, in order: the page's own origin (nginx), then the server's own port. */
export function socketUrls(location: Pick<Location, "protocol" | "hostname" | "origin">, site: string, port?: number | null): string[] {
  const urls = [`${location.origin}/${site}`];
  if (port) urls.push(`${location.protocol}//${location.hostname}:${port}/${site}`);
  return urls;
}

export interface SocketCallbacks {
  onEvent: (event: string, message: Record<string, unknown>) => void;
  /** connected now (true) or lost for a while (false; socket.io reconnects by itself) */
  onState: (connected: boolean) => void;
  /** none of the addresses answered: use another transport */
  onUnavailable: () => void;
}

export interface LiveSocket {
  subscribe: (doctype: string, name: string) => void;
  unsubscribe: (doctype: string, name: string) => void;
  close: () => void;
}

/** the address that answered last on this page: tried first next time (no 404 from the origin on every page change) */
let answeredUrl: string | null = null;

/** Connect to the first of `urls` that accepts this session; documents' rooms are (re)joined on every connect. */
export function connectSocket(addresses: string[], events: string[], callbacks: SocketCallbacks): LiveSocket {
  const urls = answeredUrl && addresses.includes(answeredUrl) ? [answeredUrl, ...addresses.filter((u) => u !== answeredUrl)] : addresses;
  const rooms = new Map<string, [string, string]>();
  let socket: Socket | null = null; // the one that answered
  let trying: Socket | null = null;
  let closed = false;

  const attempt = (index: number): void => {
    if (closed) return;
    if (index >= urls.length) return callbacks.onUnavailable();
    // no reconnection until one address has answered: a refused first try moves on to the next address
    const candidate = io(urls[index], { withCredentials: true, reconnection: false, transports: ["polling", "websocket"] });
    trying = candidate;
    let answered = false;
    candidate.on("connect_error", () => {
      if (answered) return;
      candidate.close();
      attempt(index + 1);
    });
    candidate.on("connect", () => {
      answered = true;
      answeredUrl = urls[index] ?? null;
      socket = candidate;
      candidate.io.reconnection(true);
      rooms.forEach(([doctype, name]) => candidate.emit("doc_subscribe", doctype, name));
      callbacks.onState(true);
    });
    candidate.on("disconnect", () => callbacks.onState(false));
    for (const event of events) candidate.on(event, (message: unknown) => callbacks.onEvent(event, asMessage(message)));
  };
  attempt(0);

  return {
    subscribe(doctype, name) {
      const key = `${doctype}\u0000${name}`;
      if (rooms.has(key)) return;
      rooms.set(key, [doctype, name]);
      socket?.emit("doc_subscribe", doctype, name);
    },
    unsubscribe(doctype, name) {
      if (rooms.delete(`${doctype}\u0000${name}`)) socket?.emit("doc_unsubscribe", doctype, name);
    },
    close() {
      closed = true;
      (socket ?? trying)?.close();
      socket = trying = null;
    },
  };
}

function asMessage(message: unknown): Record<string, unknown> {
  return message && typeof message === "object" ? (message as Record<string, unknown>) : {};
}
