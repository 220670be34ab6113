import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { ActionButton, summarize } from "../components/ActionButton";
import { MasterDetail } from "../components/MasterDetail";
import { ProgressBar } from "../components/ProgressBar";
import { RecordEditor } from "../components/RecordEditor";
import { Badge, Button, Card, ErrorBanner, Input, Select, Textarea } from "../components/ui";
import { errorMessage, getList, insertDoc, uploadFile } from "../lib/api";
import { can } from "../lib/boot";
import { formatDate, formatScore, plural } from "../lib/format";
import { ENABLED_FIELD, type FieldDef } from "../lib/forms";
import type { UploadProgress } from "../lib/upload";
import { BUSY, indexingProgress } from "./knowledgeProgress";
import { liveInterval, useHufEvents, useLiveDocs } from "../lib/hufEvents";
import { InputPieces, SplitPreview } from "./KnowledgePieces";
import { rebuildIndex, reprocessInput, testSearch, type Hit } from "./knowledgeApi";

const vector = (d: Record<string, unknown>) => ["sqlite_vec", "chroma"].includes(String(d.knowledge_type ?? ""));
const chromaServer = (d: Record<string, unknown>) => d.knowledge_type === "chroma" && d.chroma_mode === "Server";

const FIELDS: FieldDef[] = [
  { fieldname: "source_name", label: "Source Name", type: "data", required: true },
  { fieldname: "knowledge_type", label: "Search method", type: "select", options: ["sqlite_fts", "sqlite_vec", "chroma"], optionLabels: { sqlite_fts: "Keyword search", sqlite_vec: "Search by meaning (built in)", chroma: "Search by meaning (Chroma)" }, help: "Searching by meaning needs an embedding model." },
  { fieldname: "description", label: "Description", type: "text", help: "Helps agents decide when to look here." },
  { fieldname: "embedding_provider", label: "Embedding Provider", type: "link", linkTo: "AI Provider", showIf: vector },
  { fieldname: "embedding_model", label: "Embedding Model", type: "data", showIf: vector },
  {
    fieldname: "vector_dimension",
    label: "Vector Dimension",
    type: "int",
    readOnly: true,
    showIf: vector,
    help: "Learnt from the embedding model when you save (and again on Rebuild), never typed.",
  },
  { fieldname: "chroma_mode", label: "Chroma Mode", type: "select", options: ["File", "Server"], optionLabels: { File: "On this server", Server: "Separate Chroma server" }, showIf: (d) => d.knowledge_type === "chroma" },
  { fieldname: "chroma_host", label: "Chroma Host", type: "data", showIf: chromaServer },
  { fieldname: "chroma_port", label: "Chroma Port", type: "int", showIf: chromaServer },
  { fieldname: "chunk_size", label: "Chunk Size", type: "int" },
  { fieldname: "chunk_overlap", label: "Chunk Overlap", type: "int" },
  ENABLED_FIELD,
];

interface InputRow {
  name: string;
  title: string | null;
  input_type: string;
  status: string;
  chunk_count: number;
  error_message: string | null;
  modified: string;
}

interface SourceState {
  name: string;
  status: string | null;
  total_chunks: number | null;
  last_indexed_at: string | null;
  index_error: string | null;
  chunk_size: number | null;
  chunk_overlap: number | null;
}

const POLL_MS = 2000;

/**
 * A source's indexing state and its inputs, read again on every live event of the source (the indexer
 * publishes `huf_knowledge_update`), and every 2 s while anything is queued or being indexed and the live
 * stream is not connected, so statuses and counts follow the background jobs.
 */
function useIndexing(source: string) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  useLiveDocs("Knowledge Source", [source]);
  const connected = useHufEvents("knowledge", ({ message }) => {
    void queryClient.invalidateQueries({ queryKey: ["list", "Knowledge Source"] }); // the list's badges
    if (message.source !== source) return;
    void queryClient.invalidateQueries({ queryKey: ["knowledge-state", source] });
    void queryClient.invalidateQueries({ queryKey: ["list", "Knowledge Input", source] });
  });
  const poll = liveInterval(connected, busy ? POLL_MS : false);
  const state = useQuery({
    queryKey: ["knowledge-state", source],
    queryFn: async () =>
      (await getList<SourceState>("Knowledge Source", { fields: ["name", "status", "total_chunks", "last_indexed_at", "index_error", "chunk_size", "chunk_overlap"], filters: { name: source }, limit: 1 }))[0] ?? null,
    refetchInterval: poll,
  });
  const inputs = useQuery({
    queryKey: ["list", "Knowledge Input", source],
    queryFn: () =>
      getList<InputRow>("Knowledge Input", {
        fields: ["name", "title", "input_type", "status", "chunk_count", "error_message", "modified"],
        filters: { knowledge_source: source },
        order_by: "creation desc",
        limit: 500,
      }),
    refetchInterval: poll,
  });
  const now = BUSY.includes(String(state.data?.status ?? "")) || (inputs.data ?? []).some((r) => BUSY.includes(r.status));
  const wasBusy = useRef(false);
  useEffect(() => {
    setBusy(now);
    if (wasBusy.current && !now) void queryClient.invalidateQueries({ queryKey: ["list", "Knowledge Source"] }); // the list's badge
    wasBusy.current = now;
  }, [now, state.dataUpdatedAt, inputs.dataUpdatedAt, queryClient]);
  /** Something was queued: read both now, and keep reading while it runs. */
  const refresh = () => {
    setBusy(true);
    void queryClient.invalidateQueries({ queryKey: ["list", "Knowledge Source"] });
    void queryClient.invalidateQueries({ queryKey: ["knowledge-state", source] });
    void queryClient.invalidateQueries({ queryKey: ["list", "Knowledge Input", source] });
  };
  return { state, inputs, refresh };
}

function SourceStatus({ state }: { state: SourceState | null | undefined }) {
  if (!state) return null;
  return (
    <p className="text-sm text-slate-500" data-testid="source-status">
      Status: <Badge>{String(state.status ?? "Pending")}</Badge> · {plural(state.total_chunks ?? 0, "piece")} indexed
      {state.last_indexed_at ? ` · last indexed ${formatDate(state.last_indexed_at)}` : ""}
      {/* the last failure only while it is the state: a rebuild under way shows no earlier "Rebuild failed" */}
      {state.status === "Error" && state.index_error ? <span className="block text-red-600 dark:text-red-400">{state.index_error}</span> : null}
    </p>
  );
}

/** While the source or its inputs are being indexed: how far it got (inputs done, pieces so far). */
function IndexingBar({ state, inputs }: { state: SourceState | null | undefined; inputs: InputRow[] | undefined }) {
  const progress = state && inputs ? indexingProgress(state.status, inputs) : null;
  if (!progress) return null;
  return <ProgressBar label={progress.label} percent={progress.percent} detail={progress.percent === null ? progress.detail : `${progress.percent}% · ${progress.detail}`} className="rounded-md border border-slate-200 p-2 dark:border-slate-700" />;
}

function Inputs({ source, state, inputs, onQueued }: { source: string; state: SourceState | null | undefined; inputs: ReturnType<typeof useIndexing>["inputs"]; onQueued: () => void }) {
  const canAdd = can("Knowledge Input", "create");
  const [open, setOpen] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const settings = state ? { splitter: "SentenceSplitter", chunk_size: Number(state.chunk_size) || 512, chunk_overlap: Number(state.chunk_overlap) || 0, unit: "tokens" } : undefined;
  const [fileInput, setFileInput] = useState(0);
  const [kind, setKind] = useState<"Text" | "URL" | "File">("Text");
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [url, setUrl] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [upload, setUpload] = useState<{ name: string; progress: UploadProgress | null } | null>(null);

  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      const doc: Record<string, unknown> = { knowledge_source: source, input_type: kind, title: title || undefined };
      if (kind === "Text") doc.text = text;
      if (kind === "URL") doc.url = url;
      if (kind === "File") {
        if (!file) throw new Error("Choose a file first.");
        const name = file.name;
        setUpload({ name, progress: null });
        doc.file = await uploadFile(file, "Knowledge Source", source, (progress) => setUpload({ name, progress }));
        doc.title = title || file.name;
      }
      await insertDoc("Knowledge Input", doc);
      setTitle("");
      setText("");
      setUrl("");
      setFile(null);
      setFileInput((n) => n + 1);
      onQueued();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
      setUpload(null);
    }
  };

  return (
    <div className="space-y-3">
      <h3 className="font-medium">Content</h3>
      {inputs.error && <ErrorBanner message={errorMessage(inputs.error)} />}
      {(inputs.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-500">Nothing added yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {(inputs.data ?? []).map((row) => (
            <li key={row.name} className="py-2 text-sm">
              <div className="flex items-center justify-between gap-3">
                <span className="min-w-0">
                  <span className="block truncate font-medium">{row.title || row.name}</span>
                  <span className="block text-xs text-slate-500">
                    {row.input_type} · {plural(row.chunk_count || 0, "piece")} · {formatDate(row.modified)}
                  </span>
                  {row.error_message && <span className="block text-xs text-red-600 dark:text-red-400">{row.error_message}</span>}
                </span>
                <span className="flex items-center gap-2">
                  <Badge>{row.status}</Badge>
                  {canAdd && (row.status === "Error" || row.status === "Pending") && (
                    <ActionButton label="Retry" action={() => reprocessInput(row.name)} onDone={onQueued} />
                  )}
                  <Button variant="secondary" aria-expanded={open === row.name} aria-label={`Pieces of ${row.title || row.name}`} onClick={() => setOpen(open === row.name ? null : row.name)}>
                    Pieces
                  </Button>
                </span>
              </div>
              {open === row.name && <InputPieces source={source} input={row.name} />}
            </li>
          ))}
        </ul>
      )}
      {canAdd && (
        <Card className="space-y-2">
          <div className="flex gap-2">
            <Select aria-label="Add" className="w-40" value={kind} onChange={(e) => setKind(e.target.value as "Text" | "URL" | "File")}>
              <option value="Text">Add text</option>
              <option value="URL">Add a web page</option>
              <option value="File">Upload a file</option>
            </Select>
            <Input aria-label="Title" placeholder="Title (optional)" value={title} onChange={(e) => setTitle(e.target.value)} />
          </div>
          {kind === "Text" && <Textarea aria-label="Text" rows={4} placeholder="Paste the text…" value={text} onChange={(e) => setText(e.target.value)} />}
          {kind === "Text" &&
            text.trim() &&
            (previewing ? (
              <SplitPreview source={source} text={text} initial={settings} />
            ) : (
              <Button variant="ghost" onClick={() => setPreviewing(true)}>
                Preview the pieces…
              </Button>
            ))}
          {kind === "URL" && <Input aria-label="Web address" placeholder="https://…" value={url} onChange={(e) => setUrl(e.target.value)} />}
          {kind === "File" && <input key={fileInput} aria-label="File" type="file" className="block w-full min-w-0 text-sm" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
          {upload && <ProgressBar label={`Uploading ${upload.name}`} percent={upload.progress?.percent ?? 0} />}
          {error && <ErrorBanner message={error} />}
          <Button onClick={() => void add()} disabled={busy}>
            {busy ? "Adding…" : "Add"}
          </Button>
        </Card>
      )}
    </div>
  );
}

function TestSearch({ source }: { source: string }) {
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = async () => {
    setError(null);
    setHits(null);
    try {
      setHits(await testSearch(source, query));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <div className="space-y-2">
      <h3 className="font-medium">Try a search</h3>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <Input aria-label="Search text" placeholder="Ask something this source should know…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <Button type="submit" variant="secondary" disabled={!query.trim()}>
          Search
        </Button>
      </form>
      {error && <ErrorBanner message={error} />}
      {hits && hits.length === 0 && <p className="text-sm text-slate-500">No matches.</p>}
      {hits?.map((h, i) => (
        <div key={i} className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700">
          {h.title && <p className="font-medium">{h.title}</p>}
          <p className="whitespace-pre-wrap">{h.content ?? h.text ?? JSON.stringify(h)}</p>
          {formatScore(h.score) !== null && <p className="text-xs text-slate-500">Score {formatScore(h.score)}</p>}
        </div>
      ))}
    </div>
  );
}

function SourceEditor({ source, select, state, onQueued }: { source: string | null; select: (next: string | null | undefined) => void; state?: SourceState | null; onQueued?: () => void }) {
  return (
    <RecordEditor
      key={source ?? "new"}
      doctype="Knowledge Source"
      name={source}
      fields={FIELDS}
      nameField="source_name"
      defaults={{ source_name: "", knowledge_type: "sqlite_fts", chunk_size: 512, chunk_overlap: 50, chroma_mode: "File" }}
      title={source ?? "New knowledge source"}
      onSaved={(doc) => select(String(doc.name))}
      onDeleted={() => select(undefined)}
      actions={() =>
        source && can("Knowledge Source", "write") ? (
          <ActionButton
            label="Rebuild"
            action={() => rebuildIndex(source)}
            describe={(r) => summarize(r, "Rebuilding started.")}
            onDone={onQueued}
            disabled={state?.status === "Rebuilding"}
          />
        ) : null
      }
    >
      {() => (source ? <SourceStatus state={state} /> : null)}
    </RecordEditor>
  );
}

/** An existing source: its settings, live indexing status, content and a test search. */
function SourcePanel({ source, select }: { source: string; select: (next: string | null | undefined) => void }) {
  const { state, inputs, refresh } = useIndexing(source);
  return (
    <div className="space-y-4">
      <SourceEditor source={source} select={select} state={state.data} onQueued={refresh} />
      <Card className="space-y-6">
        <IndexingBar state={state.data} inputs={inputs.data} />
        <Inputs source={source} state={state.data} inputs={inputs} onQueued={refresh} />
        <TestSearch source={source} />
      </Card>
    </div>
  );
}

/** A source in the list; its live events (status while indexing) are followed while it is listed. */
function SourceRow({ name, status }: { name: string; status: string }) {
  useLiveDocs("Knowledge Source", [name]);
  return (
    <span className="flex items-center justify-between gap-2">
      <span className="truncate font-medium">{name}</span>
      <Badge>{status}</Badge>
    </span>
  );
}

export default function Knowledge() {
  const { name } = useParams();
  const navigate = useNavigate();
  const select = (next: string | null | undefined) => navigate(next === undefined ? "/knowledge" : next === null ? "/knowledge/new" : `/knowledge/${encodeURIComponent(next)}`);
  const selected = name === undefined ? undefined : name === "new" ? null : name;
  return (
    <MasterDetail
      doctype="Knowledge Source"
      title="Knowledge"
      description="Documents and notes your agents can search when they answer."
      listFields={["status", "description"]}
      newLabel="New knowledge source"
      emptyTitle="No knowledge sources yet"
      emptyDescription="Create one and add documents, web pages or text."
      selected={selected}
      onSelect={select}
      renderRow={(row) => <SourceRow name={String(row.name)} status={String(row.status ?? "")} />}
      renderEditor={(current) => (current ? <SourcePanel key={current} source={current} select={select} /> : <SourceEditor source={null} select={select} />)}
    />
  );
}
