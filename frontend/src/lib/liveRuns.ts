/** Runs that may still change by themselves: the pages showing them read them again until they settle. */

import { serverClockOffset, serverTime } from "./serverClock";

/** Agent Run statuses of a run that has not finished (waiting in its conversation's queue, or running). */
export const RUN_IN_FLIGHT = ["Queued", "Started"];
/** Agent Run statuses of a run waiting for a person (an approval): it changes, but seldom by the second. */
export const RUN_WAITING = ["Waiting Approval"];

/** How often pages read runs in flight again (the dashboard has no socket client: it polls), and waiting ones. */
export const LIVE_POLL_MS = 2000;
export const WAITING_POLL_MS = 10000;

export const isInFlight = (status: string | null | undefined): boolean => !!status && RUN_IN_FLIGHT.includes(status);
export const isWaiting = (status: string | null | undefined): boolean => !!status && RUN_WAITING.includes(status);

/** TanStack Query's `refetchInterval` for a page showing runs of `statuses`: every 2 s while one is in flight,
 * every 10 s while one waits for a person, else never. */
export function pollWhileInFlight(statuses: Iterable<string | null | undefined> | undefined): number | false {
  let every: number | false = false;
  for (const status of statuses ?? []) {
    if (isInFlight(status)) return LIVE_POLL_MS;
    if (isWaiting(status)) every = WAITING_POLL_MS;
  }
  return every;
}

/** Seconds from a server datetime ("2026-01-02 10:11:12.123", local time) to `now` (ms); null without a start. */
export function elapsedSeconds(from: string | null | undefined, now: number, offset: number = serverClockOffset()): number | null {
  const start = serverTime(from);
  if (start === null) return null;
  return Math.max(0, Math.floor((now + offset - start) / 1000));
}

/** "8 s", "1 min 05 s", "1 h 02 min": how long something has been going on. */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (s < 3600) return `${Math.floor(s / 60)} min ${pad(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} min`;
}
