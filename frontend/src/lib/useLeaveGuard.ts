/**
 * "Unsaved changes" guard for a page under BrowserRouter (which has no navigation blocker): asks (the
 * dashboard's confirm dialog) before following a link out of the page and before going back or forward
 * (leaveGuard.ts); closing or reloading the tab gets the browser's own question.
 */

import { useEffect, useRef } from "react";
import { askLeave, guardHistory } from "./leaveGuard";

/** The question for a page that edits `what` ("this flow", "this agent"). */
export const leaveQuestion = (what: string): string => `${what.charAt(0).toUpperCase()}${what.slice(1)} has unsaved changes. Leave without saving?`;

export function useLeaveGuard(dirty: boolean, message: string = leaveQuestion("this page")): void {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  useEffect(() => {
    guardHistory(dirty ? message : null);
    return () => guardHistory(null);
  }, [dirty, message]);

  useEffect(() => {
    let following = false; // the link the user chose to follow after all: clicked again, not asked again
    const here = window.location.pathname + window.location.search;

    // the tab is closed or reloaded
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (following || !dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = message;
    };

    // a link inside the app (the router handles its click after us: this runs in the capture phase)
    const onClick = (event: MouseEvent) => {
      if (following || !dirtyRef.current || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab or window
      const anchor = (event.target as Element | null)?.closest?.("a[href]");
      if (!anchor || anchor.getAttribute("target") === "_blank" || anchor.hasAttribute("download")) return;
      const url = new URL((anchor as HTMLAnchorElement).href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname + url.search === here) return;
      event.preventDefault();
      event.stopPropagation();
      void askLeave(message).then((leave) => {
        if (!leave) return;
        following = true;
        if (!anchor.isConnected) return window.location.assign(url.href);
        try {
          (anchor as HTMLElement).click();
        } finally {
          following = false;
        }
      });
    };

    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [message]);
}
