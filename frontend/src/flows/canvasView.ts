/**
 * The canvas as it is on screen (its size, the overview map and buttons over it) in the canvas's own
 * coordinates, for placing new steps where they can be seen and for showing an arranged flow readably.
 */

import type { ReactFlowInstance } from "@xyflow/react";
import { freeSpot, NODE_HEIGHT, NODE_WIDTH, readableViewport, type Box } from "./layout";
import type { FlowEdge, FlowNode } from "./serialize";

type Flow = ReactFlowInstance<FlowNode, FlowEdge>;

const canvasElement = (): HTMLElement | null => document.querySelector<HTMLElement>('[data-testid="flow-canvas"] .react-flow');

/** A rectangle of the screen in the canvas's coordinates. */
function toCanvas(flow: Flow, rect: DOMRect): Box {
  const a = flow.screenToFlowPosition({ x: rect.left, y: rect.top }, { snapToGrid: false });
  const b = flow.screenToFlowPosition({ x: rect.right, y: rect.bottom }, { snapToGrid: false });
  return { x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y };
}

/** The step's box (its measured size once drawn). */
export const nodeBox = (n: FlowNode): Box => ({ x: n.position.x, y: n.position.y, width: n.measured?.width ?? NODE_WIDTH, height: n.measured?.height ?? NODE_HEIGHT });

/**
 * Where a new step goes: a free spot near `anchor` (else the middle of the view), not under the overview
 * map or the zoom buttons; the view moves to show it when no free spot is in view.
 */
export function placeNewStep(flow: Flow, nodes: FlowNode[], anchor?: FlowNode): { x: number; y: number } {
  const root = canvasElement();
  if (!root) return freeSpot(nodes.map(nodeBox), { x: 0, y: 0, width: 800, height: 600 }, [], anchor?.position);
  const visible = toCanvas(flow, root.getBoundingClientRect());
  const covered = [...root.querySelectorAll<HTMLElement>(".react-flow__minimap, .react-flow__controls")]
    .filter((el) => el.offsetParent !== null)
    .map((el) => toCanvas(flow, el.getBoundingClientRect()));
  // the room of the largest step drawn so far: a new step is drawn as tall once it shows its settings
  const boxes = nodes.map(nodeBox);
  const size = boxes.reduce((s, b) => ({ width: Math.max(s.width, b.width), height: Math.max(s.height, b.height) }), { width: NODE_WIDTH, height: NODE_HEIGHT });
  const spot = freeSpot(boxes, visible, covered, anchor?.position, size);
  const box = { ...spot, ...size };
  const reveal = (area: Box) => {
    const seen = box.x >= area.x && box.y >= area.y && box.x + box.width <= area.x + area.width && box.y + box.height <= area.y + area.height;
    if (!seen) void flow.setCenter(spot.x + size.width / 2, spot.y + size.height / 2, { zoom: flow.getZoom(), duration: 200 });
  };
  reveal(visible);
  // the view may still be gliding to the step added just before (steps added quickly): look again once it is there
  window.setTimeout(() => {
    const now = canvasElement();
    if (now) reveal(toCanvas(flow, now.getBoundingClientRect()));
  }, 260);
  return spot;
}

/** Show the whole flow at a readable zoom (at least 60 %): centred when it fits, else from its top-left corner. */
export function showReadably(flow: Flow, nodes: FlowNode[]): void {
  const root = canvasElement();
  if (!root || nodes.length === 0) return;
  const boxes = nodes.map(nodeBox);
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const bounds = { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
  void flow.setViewport(readableViewport(bounds, root.clientWidth, root.clientHeight), { duration: 300 });
}
