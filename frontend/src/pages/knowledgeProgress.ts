/** What a knowledge source's indexing progress bar says, from the source's status and its inputs'. */

import { plural } from "../lib/format";

/** Statuses of a source or an input still being worked on. */
export const BUSY = ["Pending", "Processing", "Indexing", "Rebuilding"];

export interface IndexedInput {
  title?: string | null;
  name?: string;
  status: string;
  chunk_count?: number | null;
}

export interface IndexingProgress {
  label: string;
  /** Inputs finished out of all, 0..100; null during a rebuild (every input is indexed again, one after the other). */
  percent: number | null;
  detail: string;
}

/** The progress while the source or an input is busy ("1 of 3 inputs · 12 pieces so far"); null when nothing is. */
export function indexingProgress(sourceStatus: string | null | undefined, inputs: IndexedInput[]): IndexingProgress | null {
  const working = inputs.find((i) => i.status === "Processing");
  if (sourceStatus === "Rebuilding") {
    const what = working ? ` · now ${working.title || working.name || "an input"}` : "";
    return { label: "Rebuilding the index", percent: null, detail: `${plural(inputs.length, "input")}${what}` };
  }
  // a new source waits (Pending) with nothing to index yet: no bar until it has inputs
  if (!inputs.length || (!BUSY.includes(String(sourceStatus ?? "")) && !inputs.some((i) => BUSY.includes(i.status)))) return null;
  const finished = inputs.filter((i) => !BUSY.includes(i.status));
  const pieces = finished.reduce((sum, i) => sum + (i.status === "Indexed" ? Number(i.chunk_count) || 0 : 0), 0);
  const percent = Math.floor((finished.length / inputs.length) * 100);
  return {
    label: working ? `Indexing ${working.title || working.name || "an input"}` : "Indexing",
    percent,
    detail: `${finished.length} of ${plural(inputs.length, "input")} · ${plural(pieces, "piece")} so far`,
  };
}
