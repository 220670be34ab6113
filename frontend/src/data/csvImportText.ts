/** The words of the CSV import: what an import did or would do, and the problems of a refused one. */
import { ApiError, errorMessage } from "../lib/api";
import { plural } from "./cells";
import type { ImportCounts } from "./dataApi";

/** "1 row added, 2 rows updated, 3 rows unchanged" (counts of 0 left out; "no rows" when all are). */
export function countsText({ inserted, updated, unchanged }: ImportCounts): string {
  const parts = [
    inserted ? `${plural(inserted, "row")} added` : "",
    updated ? `${plural(updated, "row")} updated` : "",
    unchanged ? `${plural(unchanged, "row")} unchanged` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no rows";
}

export const importedText = (counts: ImportCounts): string => `Imported: ${countsText(counts)}.`;

/** What pressing Import would do, from a dry run's counts. */
export const plannedText = (counts: ImportCounts): string => `On import: ${countsText(counts)}.`;

/** The row problems of a refused import, one a line ("Row 3: ..."), from the server's messages
 * (without its "Nothing was imported" introduction, which the page says itself). */
export function importProblems(messages: string[]): string[] {
  return messages
    .flatMap((m) => m.split(/\n|(?=Row \d+:)/))
    .map((m) => m.trim())
    .filter((m) => m && !/^Nothing was imported\.[^:]*:$/.test(m));
}

/** The problems of a refused call: the server's "Row N: ..." lines, or its message. */
export const problemsOf = (e: unknown): string[] => (e instanceof ApiError ? importProblems(e.messages) : [errorMessage(e)]);
