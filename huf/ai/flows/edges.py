"""Which edge a flow run follows after a node.

Edges leave a node in priority order (descending; ties keep the definition's order) and the first
that matches wins: `always`; `on_success` / `on_failure` by the node's result; `expression` when its
condition is true on the flow context. Routing the node chose itself (`next_node_id`: loops,
router.llm, the orchestrator) comes first.

Outcome nodes (human.approval): the edge whose `meta.outcome` equals the decision; an approval without
one falls back to the success path; a rejection without a `meta.outcome: rejected` edge fails the run.
Which node types route themselves or by outcome is each node module's `ROUTING`.
"""

from __future__ import annotations

from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.graph import FlowGraph, edge_outcome
from huf.ai.flows.nodes import routing_of
from huf.ai.flows.nodes.base import FAILURE, OUTCOME, SELF, SUCCESS, NodeResult
from huf.huf.flow_schema import edge_condition, edge_type


class RoutingError(Exception):
	"""The run cannot go on from this node (the message says why); the engine fails the run."""


def next_node(graph: FlowGraph, node: dict, result: NodeResult, context: dict) -> str | None:
	"""The id of the node to run next, or None when the flow ends here."""
	if result.next_node_id:
		if result.next_node_id not in graph.nodes:
			raise RoutingError(
				_("Node {0} chose {1}, which is not a node of this flow.").format(
					node["id"], result.next_node_id
				)
			)
		return result.next_node_id
	edges = graph.edges_from(node["id"])
	routing = routing_of(node.get("type"))
	if routing == OUTCOME and result.outcome:
		decided = [edge for edge in edges if edge_outcome(edge) == result.outcome]
		if decided:
			return decided[0].get("target")
		if result.outcome == "rejected":
			raise RoutingError(_("The approval of node {0} was rejected.").format(node["id"]))
	if routing == OUTCOME:
		# an outcome edge is followed only for its decision: never after a failed node
		edges = [edge for edge in edges if edge_outcome(edge) is None]
	if routing == SELF:
		# A loop routes itself to its body or done node, a router to the candidate its model chose;
		# of their edges only on_failure ones are followed.
		edges = [edge for edge in edges if edge_type(edge) == "on_failure"]
	for edge in edges:
		if matches(edge, result, context):
			return edge.get("target")
	return None


def matches(edge: dict, result: NodeResult, context: dict) -> bool:
	kind = edge_type(edge)
	if kind == "always":
		return True
	if kind == "on_success":
		return result.status == SUCCESS
	if kind == "on_failure":
		return result.status == FAILURE
	if kind == "expression":
		label = _("The condition of edge {0}").format(edge.get("id") or "")
		return bool(flow_context.evaluate(edge_condition(edge) or "False", context, label))
	return False
