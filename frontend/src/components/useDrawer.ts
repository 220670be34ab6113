import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** Tailwind's `md` breakpoint: from here on the navigation is a sidebar, not a drawer. */
const WIDE = "(min-width: 768px)";

/** The navigation drawer of narrow screens: focus moves into it when it opens and stays there (Tab wraps);
 * Escape, the backdrop or the close button close it and give focus back to the menu button; following a
 * link (the route changes) closes it and leaves focus on the page's content. */
export function useDrawer(pathname: string) {
  const [open, setOpen] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  const hide = useCallback((focus: "opener" | "content" = "opener") => {
    setOpen(false);
    if (focus === "opener") openerRef.current?.focus();
    else document.getElementById("main")?.focus();
  }, []);
  const show = useCallback(() => setOpen(true), []);

  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [open]);

  const openNow = useRef(open);
  openNow.current = open;
  const seen = useRef(pathname);
  useEffect(() => {
    if (seen.current === pathname) return;
    seen.current = pathname;
    if (openNow.current) hide("content");
  }, [pathname, hide]);

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      hide();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, hide]);

  useEffect(() => {
    const wide = window.matchMedia?.(WIDE);
    if (!wide) return undefined;
    const onChange = () => wide.matches && setOpen(false);
    wide.addEventListener("change", onChange);
    return () => wide.removeEventListener("change", onChange);
  }, []);

  /** Tab and Shift+Tab wrap around inside the open drawer. */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!open || event.key !== "Tab" || !panelRef.current) return;
    const items = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return { open, show, hide, openerRef, panelRef, onKeyDown };
}
