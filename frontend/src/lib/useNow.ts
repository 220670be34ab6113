import { useEffect, useState } from "react";

/** The current time (ms), updated every `every` ms while `active` (a ticking clock for elapsed times). */
export function useNow(active: boolean, every: number = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), every);
    return () => window.clearInterval(timer);
  }, [active, every]);
  return now;
}
