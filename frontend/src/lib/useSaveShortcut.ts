/**
 * Ctrl+S (Cmd+S on a Mac) saves the editor on the page instead of opening the browser's "Save page" dialog,
 * also while typing in a field. `canSave` false (nothing changed, a save already running) makes the keys do
 * nothing; so does an open modal dialog (an "are you sure?" question), which the keys never go past.
 */

import { useEffect, useRef } from "react";

/** Whether a key press is the save shortcut: Ctrl+S or Cmd+S, no Shift or Alt. */
export const isSaveShortcut = (event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">): boolean =>
  (event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === "s";

export function useSaveShortcut(save: () => void, canSave: boolean): void {
  const latest = useRef({ save, canSave });
  latest.current = { save, canSave };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSaveShortcut(event)) return;
      event.preventDefault();
      if (event.repeat || event.isComposing || document.querySelector('[aria-modal="true"]')) return;
      if (latest.current.canSave) latest.current.save();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
