/** The server's clock: its datetimes are strings in its own time zone, which may not be the browser's. */

import { getBoot } from "./boot";

/** A server datetime ("YYYY-MM-DD HH:MM:SS", the server's time zone) read as if it were the browser's. */
export function serverTime(value: string | null | undefined): number | null {
  if (!value) return null;
  const time = new Date(value.replace(" ", "T")).getTime();
  return Number.isNaN(time) ? null : time;
}

/**
 * How far the server's clock, read as the browser's local time, is ahead of the browser's: server datetimes
 * are in the server's time zone, so `Date.now() + offset` is "now" on the same scale (0 without boot data).
 */
export function clockOffset(serverNow: string | null | undefined, browserNow: number): number {
  const server = serverTime(serverNow);
  return server === null ? 0 : server - browserNow;
}

let offset: number | null = null;

/** The offset measured from the boot data's `server_now` when the page loaded. */
export const serverClockOffset = (): number => (offset ??= clockOffset(getBoot().server_now, Date.now()));

/** "Now" on the scale of `serverTime`. */
export const serverNow = (): number => Date.now() + serverClockOffset();
