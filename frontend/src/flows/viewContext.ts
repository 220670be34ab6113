/** What the canvas's steps and edges show besides their own settings: problems, the start step, the run being watched. */

import { createContext, useContext } from "react";
import type { FlowRunView } from "./flowApi";

export interface FlowView {
  problemsByNode: Map<string, string[]>;
  problemsByEdge: Map<string, string[]>;
  entry?: string;
  run?: FlowRunView;
  selectEdge?: (id: string) => void;
}

export const FlowViewContext = createContext<FlowView>({ problemsByNode: new Map(), problemsByEdge: new Map() });

export const useFlowView = (): FlowView => useContext(FlowViewContext);
