import * as Tabs from "@radix-ui/react-tabs";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import { Badge, Button, cx, ErrorBanner, Notice, Spinner } from "../components/ui";
import { ApiError, errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import type { Problem } from "../flows/definition";
import { EdgeEditor } from "../flows/EdgeEditor";
import { FlowCanvas } from "../flows/FlowCanvas";
import { FlowSettingsPanel, type FlowMeta } from "../flows/FlowSettingsPanel";
import { flowApi, flowKeys, type FlowRecord } from "../flows/flowApi";
import { allProblems, flowWarnings, structureProblems } from "../flows/graphRules";
import { placeNewStep, showReadably } from "../flows/canvasView";
import { useEditorLayout } from "../flows/editorLayout";
import { NODE_WIDTH } from "../flows/layout";
import { NodeConfigPanel } from "../flows/NodeConfigPanel";
import { KeyReveal } from "../flows/nodeForms";
import { NodePalette } from "../flows/NodePalette";
import { RunPanel, useFlowRun } from "../flows/RunPanel";
import { toCanvas, toDefinition, type FlowEdge, type FlowNode } from "../flows/serialize";
import { useFlowEditor } from "../flows/useFlowEditor";
import { leaveQuestion, useLeaveGuard } from "../lib/useLeaveGuard";
import { useSaveShortcut } from "../lib/useSaveShortcut";

/** What the flows list passes on when it has just created the flow: its webhook key, shown this once. */
interface CreatedState {
  webhookKey?: string;
}

function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

function Editor({ flowId, record, createdKey }: { flowId: string; record: FlowRecord; createdKey?: string }) {
  const queryClient = useQueryClient();
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const editor = useFlowEditor();
  const readOnly = !can("Flow Definition", "write");
  const [meta, setMeta] = useState<FlowMeta>({ flow_name: "", description: "", category: "" });
  const [saved, setSaved] = useState<{ json: string; meta: FlowMeta; version: number; status: string } | null>(null);
  const [tab, setTab] = useState("edit");
  const [runId, setRunId] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [revealKey, setRevealKey] = useState<string | null>(createdKey ?? null);
  const [laidOut, setLaidOut] = useState(false);
  const [ready, setReady] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false); // the steps to add, folded on narrow screens
  const [layout, setLayout] = useEditorLayout(); // wider screens: palette, side panel, full width
  const loaded = useRef(false);
  const lastAdded = useRef<string | null>(null); // new steps go near it (or near the selected step)

  // load once per flow (the page is keyed by flow id)
  useEffect(() => {
    if (loaded.current) return;
    loaded.current = true;
    const canvas = toCanvas(record.definition);
    editor.load({ nodes: canvas.nodes, edges: canvas.edges, settings: canvas.settings });
    setLaidOut(canvas.laidOut && canvas.nodes.length > 0);
    setReady(true); // the canvas mounts with the flow's steps, so it fits them into view
    const m = { flow_name: record.flow_name ?? "", description: record.description ?? "", category: record.category ?? "" };
    setMeta(m);
    const json = JSON.stringify(toDefinition(flowId, canvas.nodes, canvas.edges, canvas.settings));
    // an imported flow laid out here has unsaved positions
    setSaved({ json: canvas.laidOut ? JSON.stringify(record.definition) : json, meta: m, version: record.version, status: record.status });
  }, [editor, flowId, record]);

  const { nodes, edges, settings } = editor.view;
  const definition = useMemo(() => toDefinition(flowId, nodes, edges, settings), [flowId, nodes, edges, settings]);
  const definitionJson = useMemo(() => JSON.stringify(definition), [definition]);
  // what the rules look at (positions aside): dragging a step does not re-check the flow
  const shapeJson = useMemo(() => JSON.stringify({ ...definition, nodes: definition.nodes.map(({ position: _position, ...n }) => n) }), [definition]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const problems = useMemo(() => allProblems(definition, flowId), [shapeJson, flowId]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const warnings = useMemo(() => flowWarnings(definition), [shapeJson]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const blocking = useMemo(() => structureProblems(definition, flowId), [shapeJson, flowId]);
  const metaChanged = !saved || JSON.stringify(saved.meta) !== JSON.stringify(meta);
  const dirty = !saved || saved.json !== definitionJson || metaChanged;
  useLeaveGuard(dirty, leaveQuestion("this flow"));

  const run = useFlowRun(runId);
  const problemsByNode = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const p of problems) if (p.node_id) map.set(p.node_id, [...(map.get(p.node_id) ?? []), p.message]);
    return map;
  }, [problems]);
  const problemsByEdge = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const p of problems) if (p.edge_id) map.set(p.edge_id, [...(map.get(p.edge_id) ?? []), p.message]);
    return map;
  }, [problems]);
  const entry = definition.entry_node_id;
  const { select } = editor;
  const view = useMemo(
    () => ({ problemsByNode, problemsByEdge, entry, run: runId ? run.data : undefined, selectEdge: (id: string) => select({ edge: id }) }),
    [problemsByNode, problemsByEdge, entry, runId, run.data, select],
  );

  const selectedNode = nodes.find((n) => n.selected);
  const selectedEdge = selectedNode ? undefined : edges.find((e) => e.selected);

  const save = useMutation({
    mutationFn: (status?: string) =>
      flowApi.save({
        flow_id: flowId,
        definition,
        flow_name: meta.flow_name.trim() || flowId,
        description: meta.description,
        category: meta.category,
        ...(status ? { status } : {}),
      }),
    onSuccess: (answer) => {
      const canvas = toCanvas(answer.definition);
      setSaved({
        json: JSON.stringify(toDefinition(flowId, canvas.nodes, canvas.edges, canvas.settings)),
        meta: { flow_name: answer.flow_name ?? "", description: answer.description ?? "", category: answer.category ?? "" },
        version: answer.version,
        status: answer.status,
      });
      setMeta({ flow_name: answer.flow_name ?? "", description: answer.description ?? "", category: answer.category ?? "" });
      setNotice(`Saved as version ${answer.version}.`);
      if (answer.webhook_key) setRevealKey(answer.webhook_key);
      queryClient.setQueryData(flowKeys.flow(flowId), answer);
      void queryClient.invalidateQueries({ queryKey: flowKeys.flows });
    },
  });
  /** The server changed the flow outside a save (a new webhook key): show its new version. */
  const refreshSaved = useCallback(() => {
    flowApi.get(flowId).then(
      (flow) => setSaved((current) => (current ? { ...current, version: flow.version, status: flow.status } : current)),
      () => undefined,
    );
  }, [flowId]);
  const saveError = save.error instanceof ApiError ? save.error.messages : save.error ? [errorMessage(save.error)] : [];

  const canSave = !readOnly && blocking.length === 0 && !save.isPending && meta.flow_name.trim() !== "";
  const doSave = useCallback(
    (status?: string) => {
      setNotice(null);
      save.reset();
      save.mutate(status);
    },
    [save],
  );

  useSaveShortcut(() => doSave(), canSave && dirty);
  // keyboard: undo / redo (not while typing in a field: the field has its own undo)
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && layout.wide && !isEditable(event.target) && !document.querySelector('[role="dialog"]')) {
        setLayout({ wide: false });
        return;
      }
      if (!(event.ctrlKey || event.metaKey) || isEditable(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey && !readOnly) {
        event.preventDefault();
        editor.undo();
      } else if ((key === "z" && event.shiftKey) || key === "y") {
        if (readOnly) return;
        event.preventDefault();
        editor.redo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [editor, readOnly, layout.wide, setLayout]);

  useEffect(() => {
    if (!refusal) return;
    const timer = setTimeout(() => setRefusal(null), 5000);
    return () => clearTimeout(timer);
  }, [refusal]);

  const added = useCallback((id: string) => {
    lastAdded.current = id;
    setTab("edit");
  }, []);

  /** A step from the palette: at a free spot in view, near the selected step or the one added last. */
  const addNear = (type: string) => {
    const anchor = nodes.find((n) => n.selected) ?? nodes.find((n) => n.id === lastAdded.current);
    const id = editor.addNode(type, placeNewStep(flow, nodes, anchor));
    added(id);
    return id;
  };

  const arrange = () => {
    editor.layout();
    setTimeout(() => showReadably(flow, flow.getNodes()), 50);
  };

  const showProblem = (p: Problem) => {
    if (p.node_id) editor.select({ node: p.node_id });
    else if (p.edge_id) editor.select({ edge: p.edge_id });
    const node = nodes.find((n) => n.id === p.node_id);
    if (node) void flow.setCenter(node.position.x + NODE_WIDTH / 2, node.position.y + 40, { zoom: flow.getZoom(), duration: 300 });
  };

  const status = saved?.status ?? "Draft";
  const dark = typeof document !== "undefined" && document.documentElement.classList.contains("dark");
  const runBlocked = !saved
    ? "Save the flow to run it."
    : nodes.length === 0
      ? "Add steps and save the flow to run it."
    : dirty
      ? "Runs use the saved version: save your changes first."
      : status === "Archived"
        ? "Archived flows cannot be run."
        : !can("Flow Run", "create")
          ? "Your role may not run flows."
          : undefined;

  return (
    <div
      className={cx(
        "flex min-h-[560px] flex-col gap-3",
        // full width: the editor over the whole window, the dashboard's sidebar under it
        layout.wide ? "md:fixed md:inset-0 md:z-40 md:h-screen md:bg-slate-50 md:p-3 md:dark:bg-slate-950" : "md:h-[calc(100vh-3rem)]",
      )}
      data-testid="flow-editor"
      data-wide={layout.wide || undefined}
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <Link to="/flows" className="text-sm text-indigo-600 hover:underline dark:text-indigo-400">
              Flows
            </Link>
            <span className="text-slate-400">/</span>
            <h1 className="truncate text-xl font-semibold">{meta.flow_name || flowId}</h1>
            <Badge>{status}</Badge>
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <span data-testid="flow-version">{saved ? `Version ${saved.version}` : "Not saved yet"}</span>
            {dirty && (
              <span className="ml-2 font-medium text-amber-700 dark:text-amber-400" data-testid="unsaved">
                Unsaved changes
              </span>
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {!readOnly && (
            <Button variant="secondary" className="md:hidden" aria-expanded={paletteOpen} aria-controls="flow-palette" onClick={() => setPaletteOpen((open) => !open)}>
              Add step
            </Button>
          )}
          <Button variant="ghost" className="max-md:hidden" aria-expanded={layout.palette} aria-controls="flow-palette" onClick={() => setLayout({ palette: !layout.palette })}>
            {layout.palette ? "Hide steps" : "Show steps"}
          </Button>
          <Button variant="ghost" className="max-md:hidden" aria-expanded={layout.inspector} aria-controls="flow-inspector" onClick={() => setLayout({ inspector: !layout.inspector })}>
            {layout.inspector ? "Hide panel" : "Show panel"}
          </Button>
          <Button variant="ghost" className="max-md:hidden" aria-pressed={layout.wide} onClick={() => setLayout({ wide: !layout.wide })} title="The canvas over the whole window (Esc leaves it)">
            Full width
          </Button>
          <Button variant="ghost" onClick={editor.undo} disabled={readOnly || !editor.canUndo} aria-label="Undo" title="Undo (Ctrl+Z)">
            Undo
          </Button>
          <Button variant="ghost" onClick={editor.redo} disabled={readOnly || !editor.canRedo} aria-label="Redo" title="Redo (Ctrl+Shift+Z)">
            Redo
          </Button>
          <Button variant="secondary" onClick={arrange} disabled={readOnly || nodes.length === 0} title="Lay the steps out from the start step down, then show them">
            Arrange
          </Button>
          {!readOnly && saved && status !== "Active" && (
            <Button variant="secondary" onClick={() => doSave("Active")} disabled={!canSave || problems.length > 0 || nodes.length === 0} title={nodes.length === 0 ? "Add steps first." : problems.length ? "Fix the problems first." : "Save and let triggers start it."}>
              Activate
            </Button>
          )}
          {!readOnly && saved && status === "Active" && (
            <Button variant="secondary" onClick={() => doSave("Draft")} disabled={!canSave}>
              Back to draft
            </Button>
          )}
          {!readOnly && saved && status !== "Archived" && (
            <Button variant="secondary" onClick={() => doSave("Archived")} disabled={!canSave}>
              Archive
            </Button>
          )}
          <Button onClick={() => doSave()} disabled={!canSave || !dirty} title={blocking.length ? "Fix the problems the server would refuse first." : "Save (Ctrl+S)"}>
            {save.isPending ? "Saving…" : "Save"}
          </Button>
        </div>
      </header>
      {saveError.length > 0 && (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200">
          <p className="font-semibold">The flow was not saved</p>
          <ul className="list-disc pl-5">
            {saveError.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {notice && !dirty && <Notice message={notice} />}
      {laidOut && <p className="text-xs text-slate-500">The steps of this flow had no positions: they were arranged automatically. Save to keep them.</p>}
      {readOnly && <p className="text-xs text-slate-500">You can look at this flow but not change it.</p>}

      <div className="flex min-h-0 flex-1 flex-col gap-3 md:flex-row">
        <aside id="flow-palette" className={cx("w-full shrink-0 overflow-y-auto md:max-h-none md:w-52", paletteOpen ? "max-h-64" : "hidden", layout.palette ? "md:block" : "md:hidden")}>
          <NodePalette
            onAdd={(type) => {
              addNear(type);
              setPaletteOpen(false);
            }}
            disabled={readOnly}
          />
        </aside>
        {/* narrow screens: most of the screen's height (the page scrolls on to the side panel below it) */}
        <div className="relative h-[60dvh] min-h-[320px] min-w-0 overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900 md:h-auto md:min-h-[360px] md:flex-1" data-testid="flow-canvas">
          {refusal && (
            <p role="status" className="absolute left-1/2 top-2 z-10 -translate-x-1/2 rounded-md bg-slate-900 px-3 py-1.5 text-sm text-white shadow dark:bg-slate-100 dark:text-slate-900" data-testid="connection-refused">
              {refusal}
            </p>
          )}
          {nodes.length === 0 && (
            <div className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center p-6 text-center text-sm text-slate-500">
              <p>
                Drag a trigger from the left onto the canvas to start,
                <br />
                then add steps and connect their outputs (bottom) to the next step's input (top).
              </p>
            </div>
          )}
          {ready && <FlowCanvas editor={editor} view={view} readOnly={readOnly} dark={dark} onRefused={setRefusal} onAdded={added} />}
        </div>
        <aside id="flow-inspector" aria-label="Side panel" className={cx("w-full shrink-0 overflow-y-auto rounded-lg border md:w-80 border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900", !layout.inspector && "md:hidden")}>
          <Tabs.Root value={tab} onValueChange={setTab}>
            <Tabs.List aria-label="Side panel" className="mb-3 flex gap-1 border-b border-slate-200 dark:border-slate-800">
              {[
                ["edit", selectedNode ? "Step" : selectedEdge ? "Connection" : "Flow"],
                ["run", "Run"],
              ].map(([value, label]) => (
                <Tabs.Trigger
                  key={value}
                  value={value!}
                  className={cx("-mb-px border-b-2 px-3 py-1.5 text-sm", "data-[state=active]:border-indigo-600 data-[state=active]:font-medium data-[state=inactive]:border-transparent")}
                >
                  {label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="edit">
              {selectedNode ? (
                <NodeConfigPanel
                  key={selectedNode.id}
                  node={selectedNode as FlowNode}
                  nodes={nodes}
                  outgoing={edges.filter((e) => e.source === selectedNode.id)}
                  onConnect={(target, handle) => editor.connect({ source: selectedNode.id, target, sourceHandle: handle, targetHandle: null })}
                  onSelectEdge={(id) => editor.select({ edge: id })}
                  flow={{ flowId, version: saved?.version, status: saved?.status, onKeyReset: refreshSaved }}
                  isEntry={entry === selectedNode.id}
                  problems={problems.filter((p) => p.node_id === selectedNode.id)}
                  readOnly={readOnly}
                  onChange={(change, field) => editor.updateNode(selectedNode.id, change, `node:${selectedNode.id}:${field}`)}
                  onMakeEntry={() => editor.updateSettings({ entry: selectedNode.id }, "entry")}
                  onDelete={() => editor.remove([selectedNode.id], [])}
                />
              ) : selectedEdge ? (
                <EdgeEditor
                  key={selectedEdge.id}
                  edge={selectedEdge}
                  source={nodes.find((n) => n.id === selectedEdge.source)}
                  target={nodes.find((n) => n.id === selectedEdge.target)}
                  problems={problems.filter((p) => p.edge_id === selectedEdge.id)}
                  readOnly={readOnly}
                  onChange={(patch, field, handle) =>
                    editor.updateEdge(
                      selectedEdge.id,
                      (e) => ({ ...e, ...(handle !== undefined ? { sourceHandle: handle } : {}), data: { ...(e.data ?? { kind: "always" }), ...patch } }),
                      `edge:${selectedEdge.id}:${field}`,
                    )
                  }
                  onDelete={() => editor.remove([], [selectedEdge.id])}
                />
              ) : (
                <FlowSettingsPanel
                  meta={meta}
                  onMeta={(patch) => setMeta((m) => ({ ...m, ...patch }))}
                  settings={settings}
                  onSettings={(patch, field) => editor.updateSettings(patch, `settings:${field}`)}
                  problems={problems}
                  warnings={warnings}
                  onShowProblem={showProblem}
                  readOnly={readOnly}
                />
              )}
            </Tabs.Content>
            <Tabs.Content value="run">
              <RunPanel flowId={flowId} canRun={!runBlocked} blockedReason={runBlocked} runId={runId} onWatch={setRunId} selectedNode={selectedNode as FlowNode | undefined} />
            </Tabs.Content>
          </Tabs.Root>
        </aside>
      </div>
      {revealKey && <KeyReveal flowKey={revealKey} onClose={() => setRevealKey(null)} />}
    </div>
  );
}

/** /flows/:flowId: the canvas of one flow (the flows list creates a new flow as an empty draft, then opens it). */
export default function FlowEditor() {
  const { flowId = "" } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  // the key of a flow created a moment ago: taken once, then dropped from the history entry (a reload never shows it)
  const [createdKey] = useState(() => (location.state as CreatedState | null)?.webhookKey);
  useEffect(() => {
    if ((location.state as CreatedState | null)?.webhookKey) navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);
  const query = useQuery({
    queryKey: flowKeys.flow(flowId),
    queryFn: () => flowApi.get(flowId),
    staleTime: Infinity,
    gcTime: 0,
  });
  if (query.isLoading) return <Spinner label="Loading the flow…" />;
  if (query.error || !query.data) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="max-w-xl space-y-3">
        <ErrorBanner title={missing ? "This flow does not exist" : "The flow could not be opened"} message={errorMessage(query.error)} />
        <Link to="/flows" className="text-sm text-indigo-600 hover:underline dark:text-indigo-400">
          All flows
        </Link>
      </div>
    );
  }
  return (
    <ReactFlowProvider key={flowId}>
      <Editor flowId={flowId} record={query.data} createdKey={createdKey} />
    </ReactFlowProvider>
  );
}
