import { useEffect, useRef } from "react";

/** How long to wait for a page's h1 that appears only once its data has loaded. */
const WAIT_FOR_HEADING_MS = 5000;

/** Focus `el` without scrolling, making it focusable from script first (a heading is not otherwise). */
function focusQuietly(el: HTMLElement) {
  if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus({ preventScroll: true });
}

/** After a client-side route change, focus the new page's h1 (or the main region until it appears), so
 * screen readers and the keyboard start on the new page instead of the document's body. A page that put
 * focus inside the main region itself (Chat's message box) keeps it; the first page load is left alone. */
export function useRouteFocus(pathname: string) {
  const seen = useRef(pathname);
  useEffect(() => {
    if (seen.current === pathname) return undefined;
    seen.current = pathname;
    const main = document.getElementById("main");
    if (!main) return undefined;
    const claimed = () => {
      const active = document.activeElement;
      return Boolean(active && active !== main && active.isConnected && main.contains(active));
    };
    if (claimed()) return undefined;
    const heading = main.querySelector<HTMLElement>("h1");
    if (heading) {
      focusQuietly(heading);
      return undefined;
    }
    focusQuietly(main);
    // the page is still loading: move on to its heading when it shows, unless focus went elsewhere
    const observer = new MutationObserver(() => {
      const h1 = main.querySelector<HTMLElement>("h1");
      if (!h1) return;
      observer.disconnect();
      if (document.activeElement === main || document.activeElement === document.body) focusQuietly(h1);
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), WAIT_FOR_HEADING_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
}
