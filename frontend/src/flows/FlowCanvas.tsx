import {
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type NodeTypes,
  type EdgeTypes,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useMemo, useState, type DragEvent } from "react";
import { connectionError } from "./graphRules";
import { FlowEdgeView } from "./FlowEdgeView";
import { GRID, NODE_WIDTH } from "./layout";
import { DRAG_TYPE } from "./NodePalette";
import { NODE_TYPES, nodeTypeInfo } from "./nodeTypes";
import { StepNode } from "./StepNode";
import { StepPicker } from "./StepPicker";
import type { FlowEditorState } from "./useFlowEditor";
import { FlowViewContext, type FlowView } from "./viewContext";

const nodeTypes: NodeTypes = Object.fromEntries(NODE_TYPES.map((info) => [info.type, StepNode]));
const edgeTypes: EdgeTypes = { flow: FlowEdgeView };
const defaultEdgeOptions = { type: "flow", markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } };
const snapGrid: [number, number] = [GRID, GRID];

const snap = (value: number) => Math.round(value / GRID) * GRID;

/** The flow on a React Flow canvas: drop steps from the palette, connect them by the rules, select to edit. */
export function FlowCanvas({
  editor,
  view,
  readOnly,
  dark,
  onRefused,
  onAdded,
}: {
  editor: FlowEditorState;
  view: FlowView;
  readOnly: boolean;
  dark: boolean;
  onRefused: (message: string) => void;
  onAdded: (id: string) => void;
}) {
  const flow = useReactFlow();
  const { nodes, edges } = editor.view;
  // fit a loaded flow into view once; an empty canvas keeps its scale, so steps land where they are dropped
  const [fitOnLoad] = useState(() => nodes.length > 0);

  const isValidConnection = useCallback(
    (connection: Connection | Edge) => connectionError(nodes, edges, connection) === null,
    [nodes, edges],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const error = editor.connect(connection);
      if (error) onRefused(error);
    },
    [editor, onRefused],
  );

  // a connection dropped on empty canvas: the steps that can follow, offered where it was dropped
  const [picker, setPicker] = useState<{ at: { x: number; y: number }; room: { width: number; height: number }; point: { x: number; y: number }; source: string; sourceHandle: string | null } | null>(null);
  const closePicker = useCallback(() => setPicker(null), []);

  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: { isValid: boolean | null; fromNode: { id: string } | null; toNode: { id: string } | null; fromHandle: { id?: string | null; type?: string } | null }) => {
      // dropped on a step that refuses it: say why
      if (state.isValid === false && state.fromNode && state.toNode) {
        const error = connectionError(nodes, edges, { source: state.fromNode.id, target: state.toNode.id, sourceHandle: state.fromHandle?.id ?? null });
        if (error) onRefused(error);
        return;
      }
      if (readOnly || state.isValid || state.toNode || !state.fromNode || state.fromHandle?.type === "target") return;
      const pointer = "changedTouches" in event ? event.changedTouches[0] : event;
      if (!pointer) return;
      // let go on the canvas itself, not on a step, the overview map or the buttons
      const under = document.elementFromPoint(pointer.clientX, pointer.clientY);
      const box = under?.closest(".react-flow")?.getBoundingClientRect();
      if (!box || under?.closest(".react-flow__node, .react-flow__minimap, .react-flow__controls, .react-flow__edgelabel-renderer > *")) return;
      setPicker({
        at: { x: pointer.clientX - box.left, y: pointer.clientY - box.top },
        room: { width: box.width, height: box.height },
        point: flow.screenToFlowPosition({ x: pointer.clientX, y: pointer.clientY }),
        source: state.fromNode.id,
        sourceHandle: state.fromHandle?.id ?? null,
      });
    },
    [nodes, edges, onRefused, readOnly, flow],
  );

  const pick = useCallback(
    (type: string) => {
      if (!picker) return;
      setPicker(null);
      const id = editor.addConnectedNode(type, { x: snap(picker.point.x - NODE_WIDTH / 2), y: snap(picker.point.y) }, { source: picker.source, sourceHandle: picker.sourceHandle });
      if (id) onAdded(id);
    },
    [picker, editor, onAdded],
  );
  const pickerAfter = picker ? String(nodes.find((n) => n.id === picker.source)?.data.label || picker.source) : "";

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(DRAG_TYPE);
      if (!type || !nodeTypeInfo(type) || readOnly) return;
      event.preventDefault();
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      onAdded(editor.addNode(type, { x: snap(point.x - NODE_WIDTH / 2), y: snap(point.y - 20) }));
    },
    [flow, editor, onAdded, readOnly],
  );

  const value = useMemo(() => view, [view]);
  return (
    <FlowViewContext.Provider value={value}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        defaultEdgeOptions={defaultEdgeOptions}
        onNodesChange={editor.onNodesChange}
        onEdgesChange={editor.onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onDragOver={onDragOver}
        onDrop={onDrop}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesReconnectable={false}
        deleteKeyCode={readOnly ? null : ["Delete", "Backspace"]}
        snapToGrid
        snapGrid={snapGrid}
        fitView={fitOnLoad}
        fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
        minZoom={0.2}
        colorMode={dark ? "dark" : "light"}
        aria-label="Flow canvas"
      >
        <Background variant={BackgroundVariant.Dots} gap={GRID} size={1} />
        {/* a narrow screen's canvas has no room for the overview */}
        <MiniMap pannable zoomable ariaLabel="Overview of the flow" className="max-md:!hidden" />
        <Controls showInteractive={false} />
      </ReactFlow>
      {picker && <StepPicker at={picker.at} room={picker.room} after={pickerAfter} onPick={pick} onClose={closePicker} />}
    </FlowViewContext.Provider>
  );
}
