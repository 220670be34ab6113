/** How the flow editor shares the screen (kept per browser in localStorage as `huf-flow-editor-layout`):
 * whether the steps to add (palette) and the side panel (inspector) show, and the full-width mode. */

import { useCallback, useState } from "react";

export interface EditorLayout {
  palette: boolean;
  inspector: boolean;
  /** The editor over the whole window: the dashboard's sidebar hidden. */
  wide: boolean;
}

export const LAYOUT_KEY = "huf-flow-editor-layout";
export const DEFAULT_LAYOUT: EditorLayout = { palette: true, inspector: true, wide: false };

/** The layout stored as `text` (unknown or broken values fall back to the default). */
export function parseLayout(text: string | null | undefined): EditorLayout {
  let stored: unknown = null;
  try {
    stored = text ? JSON.parse(text) : null;
  } catch {
    stored = null;
  }
  const value = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const pick = (key: keyof EditorLayout) => (typeof value[key] === "boolean" ? (value[key] as boolean) : DEFAULT_LAYOUT[key]);
  return { palette: pick("palette"), inspector: pick("inspector"), wide: pick("wide") };
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: the choice lasts for the page only
  }
}

/** The editor's layout and a setter that remembers it in this browser. */
export function useEditorLayout(): [EditorLayout, (patch: Partial<EditorLayout>) => void] {
  const [layout, setLayout] = useState<EditorLayout>(() => parseLayout(storage()?.getItem(LAYOUT_KEY)));
  const update = useCallback((patch: Partial<EditorLayout>) => {
    setLayout((current) => {
      const next = { ...current, ...patch };
      try {
        storage()?.setItem(LAYOUT_KEY, JSON.stringify(next));
      } catch {
        /* full or blocked: kept for this page */
      }
      return next;
    });
  }, []);
  return [layout, update];
}
