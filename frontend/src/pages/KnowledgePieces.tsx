import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorBanner, Input, Notice, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { plural } from "../lib/format";
import { inputPieces, inputPiecesKey, previewSplit, splitPreviewKey, type PiecesPage, type SplitSettings } from "./knowledgeApi";

const PAGE = 10;

/** "SentenceSplitter · pieces of at most 512 tokens, 50 overlapping" */
export function settingsLine(settings: PiecesPage["settings"]): string {
  return `${settings.splitter} · pieces of at most ${settings.chunk_size} ${settings.unit}, ${settings.chunk_overlap} overlapping`;
}

/** One page of pieces with their sizes, and Previous / Next when there are more. */
function PiecesList({ data, onPage, label }: { data: PiecesPage; onPage: (start: number) => void; label: string }) {
  const last = Math.min(data.start + data.pieces.length, data.total);
  return (
    <div className="space-y-2" data-testid="pieces">
      <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="pieces-settings">
        {settingsLine(data.settings)} · {plural(data.total, "piece")}
      </p>
      {data.settings_changed && <Notice message="The source's settings changed since this was indexed: the pieces below are the old ones until the rebuild ends." />}
      <ol className="space-y-2" aria-label={label}>
        {data.pieces.map((piece) => (
          <li key={piece.position} className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700">
            <p className="mb-1 text-xs font-medium text-slate-600 dark:text-slate-300">
              Piece {piece.position + 1} · {plural(piece.characters, "character")} · {plural(piece.tokens, "token")}
              {piece.page ? ` · ${piece.page}` : ""}
            </p>
            <p className="max-h-40 overflow-auto whitespace-pre-wrap break-words">{piece.text}</p>
          </li>
        ))}
      </ol>
      {data.total > data.pieces.length && (
        <div className="flex items-center gap-2 text-xs">
          <Button variant="secondary" disabled={data.start === 0} onClick={() => onPage(Math.max(0, data.start - PAGE))}>
            Previous
          </Button>
          <span aria-live="polite">
            {data.start + 1}–{last} of {data.total}
          </span>
          <Button variant="secondary" disabled={last >= data.total} onClick={() => onPage(data.start + PAGE)}>
            Next
          </Button>
        </div>
      )}
    </div>
  );
}

/** Chunk size and overlap to try, with a button that runs the preview. */
function TrySettings({ initial, onTry, busy }: { initial: PiecesPage["settings"] | undefined; onTry: (size: number, overlap: number) => void; busy: boolean }) {
  const [size, setSize] = useState(String(initial?.chunk_size ?? 512));
  const [overlap, setOverlap] = useState(String(initial?.chunk_overlap ?? 50));
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        onTry(Number(size), Number(overlap));
      }}
    >
      <label className="flex flex-col text-xs">
        Chunk size
        <Input type="number" min={1} className="w-24" value={size} onChange={(e) => setSize(e.target.value)} />
      </label>
      <label className="flex flex-col text-xs">
        Overlap
        <Input type="number" min={0} className="w-24" value={overlap} onChange={(e) => setOverlap(e.target.value)} />
      </label>
      <Button type="submit" variant="secondary" disabled={busy}>
        Try these settings
      </Button>
    </form>
  );
}

/** A preview of how `text` (or `input`'s content) would be split with proposed settings: nothing is written. */
export function SplitPreview({ source, text, input, initial }: { source: string; text?: string; input?: string; initial?: PiecesPage["settings"] }) {
    // the text as it was when Try was pressed: typing on does not split again on every key
  const [settings, setSettings] = useState<SplitSettings | null>(null);
  const [start, setStart] = useState(0);
  const preview = useQuery({
    queryKey: splitPreviewKey(source, input, settings, start),
    queryFn: () => previewSplit(source, input, settings, start, PAGE),
    enabled: settings !== null,
    retry: false,
  });
  return (
    <div className="space-y-2">
      <TrySettings
        initial={initial}
        busy={preview.isFetching}
        onTry={(size, overlap) => {
          setStart(0);
          setSettings({ size, overlap, text });
        }}
      />
      {preview.isFetching && <Spinner label="Splitting…" />}
      {preview.error && <ErrorBanner message={errorMessage(preview.error)} />}
      {preview.data && <PiecesList data={preview.data} onPage={setStart} label="Preview pieces" />}
    </div>
  );
}

/** The pieces the index holds for one input, paged, with a preview of other settings. */
export function InputPieces({ source, input }: { source: string; input: string }) {
  const [start, setStart] = useState(0);
  const [trying, setTrying] = useState(false);
  const stored = useQuery({
    queryKey: inputPiecesKey(input, start),
    queryFn: () => inputPieces(input, start, PAGE),
  });
  return (
    <div className="mt-2 space-y-3 rounded-md bg-slate-50 p-2 dark:bg-slate-900" data-testid="input-pieces">
      {stored.isLoading && <Spinner label="Loading pieces…" />}
      {stored.error && <ErrorBanner message={errorMessage(stored.error)} />}
      {stored.data && (stored.data.total ? <PiecesList data={stored.data} onPage={setStart} label="Stored pieces" /> : <p className="text-sm text-slate-600 dark:text-slate-300">The index holds no pieces of this input yet.</p>)}
      {trying ? (
        <SplitPreview source={source} input={input} initial={stored.data?.settings} />
      ) : (
        <Button variant="ghost" onClick={() => setTrying(true)}>
          Try other settings…
        </Button>
      )}
    </div>
  );
}
