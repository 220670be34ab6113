/** The server calls of the Knowledge page: the spec's index endpoints (Knowledge Source, Knowledge Input) and
 * Huf's pieces of an input and split previews (huf.api.knowledge). */
import { call } from "../lib/api";

const SOURCE = "huf.huf.doctype.knowledge_source.knowledge_source";
const INPUT = "huf.huf.doctype.knowledge_input.knowledge_input";
const PIECES = "huf.api.knowledge";

export interface Piece {
  position: number;
  text: string;
  characters: number;
  tokens: number;
  page: string;
}

export interface PiecesPage {
  settings: { splitter: string; chunk_size: number; chunk_overlap: number; unit: string };
  settings_changed?: boolean;
  total: number;
  start: number;
  page_length: number;
  pieces: Piece[];
}

/** One hit of a test search. */
export interface Hit {
  content?: string;
  text?: string;
  title?: string;
  score?: number;
}

/** Index the source again from its inputs (queued). */
export const rebuildIndex = (source: string) => call<unknown>(`${SOURCE}.rebuild_index`, { knowledge_source: source });

/** Index a failed or pending input again (queued). */
export const reprocessInput = (input: string) => call<unknown>(`${INPUT}.reprocess_input`, { knowledge_input: input });

/** The best pieces of the source for `query`. */
export const testSearch = async (source: string, query: string, topK = 5): Promise<Hit[]> => {
  const result = await call<Hit[] | { results?: Hit[] }>(`${SOURCE}.test_search`, { knowledge_source: source, query, top_k: topK });
  return Array.isArray(result) ? result : (result.results ?? []);
};

export const inputPiecesKey = (input: string, start: number) => ["input-pieces", input, start];

/** A page of the pieces the index holds for one input. */
export const inputPieces = (input: string, start: number, pageLength: number) =>
  call<PiecesPage>(`${PIECES}.input_pieces`, { knowledge_input: input, start, page_length: pageLength }, "GET");

export interface SplitSettings {
  size: number;
  overlap: number;
  text?: string;
}

export const splitPreviewKey = (source: string, input: string | undefined, settings: SplitSettings | null, start: number) => [
  "split-preview",
  source,
  input ?? null,
  settings,
  start,
];

/** A page of the pieces `settings.text` (or `input`'s content) would be split into; nothing is written. */
export const previewSplit = (source: string, input: string | undefined, settings: SplitSettings | null, start: number, pageLength: number) =>
  call<PiecesPage>(`${PIECES}.preview_split`, {
    knowledge_source: source,
    knowledge_input: input,
    text: input ? undefined : settings?.text,
    chunk_size: settings?.size,
    chunk_overlap: settings?.overlap,
    start,
    page_length: pageLength,
  });
