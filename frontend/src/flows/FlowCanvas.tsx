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

  const onConnectEnd = useCallback(
    (_event: MouseEvent | TouchEvent, state: { isValid: boolean | null; fromNode: { id: string } | null; toNode: { id: string } | null; fromHandle: { id?: string | null } | null }) => {
      // dropped on a step that refuses it: say why
      if (state.isValid === false && state.fromNode && state.toNode) {
        const error = connectionError(nodes, edges, { source: state.fromNode.id, target: state.toNode.id, sourceHandle: state.fromHandle?.id ?? null });
        if (error) onRefused(error);
      }
    },
    [nodes, edges, onRefused],
  );

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
    </FlowViewContext.Provider>
  );
}
