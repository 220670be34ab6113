/**
 * The canvas's editing state: nodes, edges and the flow's settings, with undo/redo. What the canvas shows
 * (`view`) follows every change; an edit worth undoing is recorded once it is complete (a drag when it
 * ends, typing in one field as one step).
 */

import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { Dict } from "./definition";
import { connectionError } from "./graphRules";
import { canRedo, canUndo, record, redo, startHistory, undo, type History } from "./history";
import { autoLayout } from "./layout";
import { defaultData, nodeTypeInfo } from "./nodeTypes";
import { newEdgeData, newEdgeId, newNodeId, type EdgeData, type FlowEdge, type FlowNode, type FlowSettings } from "./serialize";

export interface Snapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
  settings: FlowSettings;
}

interface State {
  history: History<Snapshot>;
  view: Snapshot;
}

const EMPTY: Snapshot = { nodes: [], edges: [], settings: { mode: "Normal", schemaVersion: 1, extra: {} } };

/** Selection is how the canvas looks, not part of the flow: a recorded snapshot keeps none. */
function unselected(snapshot: Snapshot): Snapshot {
  return {
    ...snapshot,
    nodes: snapshot.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)),
    edges: snapshot.edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
  };
}

/** What makes two snapshots the same flow (selection, sizes and drag state aside). */
export function sameFlow(a: Snapshot, b: Snapshot): boolean {
  const key = (s: Snapshot) =>
    JSON.stringify([
      s.nodes.map((n) => [n.id, n.type, Math.round(n.position.x), Math.round(n.position.y), n.data]),
      s.edges.map((e) => [e.id, e.source, e.target, e.sourceHandle ?? null, e.data]),
      s.settings,
    ]);
  return a === b || key(a) === key(b);
}

function recorded(history: History<Snapshot>, view: Snapshot, key?: string): History<Snapshot> {
  return sameFlow(history.present, view) ? history : record(history, unselected(view), key);
}

/** `view` with a new step of `type` at `position` connected from `from`, selected; or why the rules refuse it. */
export function withConnectedStep(
  view: Snapshot,
  type: string,
  position: { x: number; y: number },
  from: { source: string; sourceHandle?: string | null },
): { view: Snapshot; id: string } | { error: string } {
  const id = newNodeId(type, view.nodes.map((n) => n.id));
  const node: FlowNode = { id, type, position, data: { label: nodeTypeInfo(type)?.label ?? type, ...defaultData(type) }, selected: true };
  const sourceHandle = from.sourceHandle ?? null;
  const error = connectionError([...view.nodes, node], view.edges, { source: from.source, target: id, sourceHandle });
  if (error) return { error };
  const source = view.nodes.find((n) => n.id === from.source);
  const edge: FlowEdge = {
    id: newEdgeId(view.edges.map((e) => e.id)),
    source: from.source,
    target: id,
    sourceHandle,
    type: "flow",
    data: newEdgeData(source?.type, sourceHandle, view.edges.filter((e) => e.source === from.source)),
  };
  return {
    id,
    view: { ...view, nodes: [...view.nodes.map((n) => ({ ...n, selected: false })), node], edges: [...view.edges.map((e) => ({ ...e, selected: false })), edge] },
  };
}

export function useFlowEditor() {
  const [state, setState] = useState<State>({ history: startHistory(EMPTY), view: EMPTY });
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  /** Record the current view as one undo step (changes made in the same tick make one step). */
  const commitSoon = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      setState((s) => ({ ...s, history: recorded(s.history, s.view) }));
    }, 0);
  }, []);
  useEffect(() => () => {
    if (pending.current) clearTimeout(pending.current);
  }, []);

  /** Change the view and record it at once (`key`: edits with the same key in a row make one step). */
  const edit = useCallback((change: (view: Snapshot) => Snapshot, key?: string) => {
    setState((s) => {
      const view = change(s.view);
      return { view, history: recorded(s.history, view, key) };
    });
  }, []);

  const load = useCallback((snapshot: Snapshot) => {
    setState({ history: startHistory(snapshot), view: snapshot });
  }, []);

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      setState((s) => ({ ...s, view: { ...s.view, nodes: applyNodeChanges(changes, s.view.nodes) } }));
      if (changes.some((c) => c.type === "remove" || c.type === "add" || (c.type === "position" && c.dragging === false))) commitSoon();
    },
    [commitSoon],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<FlowEdge>[]) => {
      setState((s) => ({ ...s, view: { ...s.view, edges: applyEdgeChanges(changes, s.view.edges) } }));
      if (changes.some((c) => c.type === "remove" || c.type === "add")) commitSoon();
    },
    [commitSoon],
  );

  /** Connect two steps if the rules allow it; returns why not otherwise. */
  const connect = useCallback(
    (connection: Connection): string | null => {
      const error = connectionError(state.view.nodes, state.view.edges, connection);
      if (error) return error;
      edit((view) => {
        const source = view.nodes.find((n) => n.id === connection.source);
        const siblings = view.edges.filter((e) => e.source === connection.source);
        const edge: FlowEdge = {
          id: newEdgeId(view.edges.map((e) => e.id)),
          source: connection.source,
          target: connection.target,
          sourceHandle: connection.sourceHandle ?? null,
          type: "flow",
          data: newEdgeData(source?.type, connection.sourceHandle, siblings),
        };
        return { ...view, edges: [...view.edges, edge] };
      });
      return null;
    },
    [edit, state.view.nodes, state.view.edges],
  );

  const addNode = useCallback(
    (type: string, position: { x: number; y: number }): string => {
      const id = newNodeId(type, state.view.nodes.map((n) => n.id));
      const info = nodeTypeInfo(type);
      edit((view) => ({
        ...view,
        nodes: [...view.nodes.map((n) => ({ ...n, selected: false })), { id, type, position, data: { label: info?.label ?? type, ...defaultData(type) }, selected: true }],
        edges: view.edges.map((e) => ({ ...e, selected: false })),
      }));
      return id;
    },
    [edit, state.view.nodes],
  );

  /** A new step at `position`, connected from `from` (an output dragged onto empty canvas); null if refused. */
  const addConnectedNode = useCallback(
    (type: string, position: { x: number; y: number }, from: { source: string; sourceHandle?: string | null }): string | null => {
      const result = withConnectedStep(state.view, type, position, from);
      if ("error" in result) return null;
      edit(() => result.view);
      return result.id;
    },
    [edit, state.view],
  );

  const updateNode = useCallback(
    (id: string, change: (data: Dict) => Dict, key?: string) => {
      edit((view) => ({ ...view, nodes: view.nodes.map((n) => (n.id === id ? { ...n, data: change(n.data) } : n)) }), key ?? `node:${id}`);
    },
    [edit],
  );

  const updateEdge = useCallback(
    (id: string, change: (edge: FlowEdge) => FlowEdge, key?: string) => {
      edit((view) => ({ ...view, edges: view.edges.map((e) => (e.id === id ? change(e) : e)) }), key ?? `edge:${id}`);
    },
    [edit],
  );

  const setEdgeData = useCallback(
    (id: string, patch: Partial<EdgeData>, key?: string) =>
      updateEdge(id, (e) => ({ ...e, data: { ...(e.data ?? { kind: "always" }), ...patch } }), key),
    [updateEdge],
  );

  const remove = useCallback(
    (nodeIds: string[], edgeIds: string[]) => {
      edit((view) => ({
        ...view,
        nodes: view.nodes.filter((n) => !nodeIds.includes(n.id)),
        edges: view.edges.filter((e) => !edgeIds.includes(e.id) && !nodeIds.includes(e.source) && !nodeIds.includes(e.target)),
      }));
    },
    [edit],
  );

  const updateSettings = useCallback(
    (patch: Partial<FlowSettings>, key?: string) => edit((view) => ({ ...view, settings: { ...view.settings, ...patch } }), key ?? "settings"),
    [edit],
  );

  /** Select one node or edge (or nothing), as clicking it on the canvas does. */
  const select = useCallback((target: { node?: string; edge?: string }) => {
    setState((s) => ({
      ...s,
      view: {
        ...s.view,
        nodes: s.view.nodes.map((n) => ({ ...n, selected: n.id === target.node })),
        edges: s.view.edges.map((e) => ({ ...e, selected: e.id === target.edge })),
      },
    }));
  }, []);

  const layout = useCallback(() => {
    edit((view) => {
      const positions = autoLayout(view.nodes, view.edges, view.settings.entry);
      return { ...view, nodes: view.nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position })) };
    });
  }, [edit]);

  const undoEdit = useCallback(() => setState((s) => {
    const history = undo(s.history);
    return { history, view: history.present };
  }), []);
  const redoEdit = useCallback(() => setState((s) => {
    const history = redo(s.history);
    return { history, view: history.present };
  }), []);

  return {
    view: state.view,
    canUndo: canUndo(state.history),
    canRedo: canRedo(state.history),
    load,
    onNodesChange,
    onEdgesChange,
    connect,
    addNode,
    addConnectedNode,
    updateNode,
    updateEdge,
    setEdgeData,
    remove,
    updateSettings,
    select,
    layout,
    undo: undoEdit,
    redo: redoEdit,
  };
}

export type FlowEditorState = ReturnType<typeof useFlowEditor>;
