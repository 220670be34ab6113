/** Checking a flow file before it is imported: what the server would refuse, per step and connection. */

import { isDict, parseDefinition, type Dict, type Problem } from "./definition";
import { allProblems } from "./graphRules";

export interface ImportCheck {
  /** What is sent to the server: an export (`definition` inside) or a bare definition. */
  data?: Dict;
  definition?: Dict;
  flowId?: string;
  flowName?: string;
  problems: Problem[];
}

/** Read an exported flow (or a bare definition) from text and list what is wrong with it. */
export function checkImport(text: string): ImportCheck {
  const { definition: data, error } = parseDefinition(text);
  if (!data) return { problems: [{ message: error ?? "The file is empty." }] };
  let definition: unknown = isDict(data.definition) || typeof data.definition === "string" ? data.definition : data;
  if (typeof definition === "string") {
    const inner = parseDefinition(definition);
    if (!inner.definition) return { data, problems: [{ message: `The definition inside the file: ${inner.error}` }] };
    definition = inner.definition;
  }
  const def = definition as Dict;
  const flowId = typeof data.flow_id === "string" && data.flow_id.trim() ? data.flow_id.trim() : typeof def.id === "string" && def.id.trim() ? def.id.trim() : undefined;
  const problems: Problem[] = [];
  if (!flowId) problems.push({ message: "The flow has no id (flow_id, or id in the definition)." });
  // the server gives the imported flow its id (made unique): the definition's own id does not matter
  problems.push(...allProblems(def).filter((p) => !p.message.startsWith("The id of the definition")));
  const flowName = typeof data.flow_name === "string" ? data.flow_name : typeof def.name === "string" ? def.name : undefined;
  return { data, definition: def, flowId, flowName, problems };
}

/** Where a problem is: the step or connection it names, or the flow itself. */
export function problemPlace(problem: Problem): string {
  if (problem.node_id) return `Step ${problem.node_id}`;
  if (problem.edge_id) return `Connection ${problem.edge_id}`;
  return "Flow";
}

/** Problems grouped by where they are, in the order first seen. */
export function groupProblems(problems: Problem[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const p of problems) groups.set(problemPlace(p), [...(groups.get(problemPlace(p)) ?? []), p.message]);
  return [...groups.entries()];
}

/** Merge the server's problems into the editor's: the server's wording wins where both found the same. */
export function mergeProblems(local: Problem[], server: Problem[]): Problem[] {
  const seen = new Set(server.map((p) => p.message));
  return [...server, ...local.filter((p) => !seen.has(p.message))];
}
