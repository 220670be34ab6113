"""loop: run a body of nodes once per item of a list, then go on to the done node (or end the run).

Each visit of the loop node takes the next item: it sets the variables `item` and `index` and routes
to the body; the body's last node leads back to the loop node by an edge. After the last item it
routes to `done`, or, without a done node, the run ends with Success. The items are evaluated once,
when the loop starts, and kept with its position in `context["state"][loop id]`; a loop reached again
after it finished (e.g. an inner loop inside an outer loop's body) starts over with fresh items.
"""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.graph import config_value
from huf.ai.flows.nodes.base import SELF, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.huf.flow_schema import edge_type

MAX_ITEMS = 1_000
HANDLES = ("body", "done")


class LoopError(frappe.ValidationError):
	"""A loop node cannot go on (the message says why)."""


def loop(call: NodeCall) -> NodeResult:
	body, done = targets(call)
	if not body:
		raise LoopError(
			_("Loop node {0} has no body: set body to a node id or connect its body handle.").format(
				call.node_id
			)
		)
	state = (call.context.get("state") or {}).get(call.node_id) or {}
	if state.get("finished") or not isinstance(state.get("items"), list):
		state = {"items": items_of(call), "next": 0}
	items, position = state["items"], int(state.get("next") or 0)
	if position < len(items):
		item = items[position]
		return NodeResult(
			output={"index": position, "item": item},
			vars={"item": item, "index": position},
			state={"items": items, "next": position + 1},
			next_node_id=body,
		)
	return NodeResult(
		output={"count": len(items)},
		state={"finished": True, "count": len(items)},
		next_node_id=done,
	)


def items_of(call: NodeCall) -> list:
	"""The list to go through: `items` as an expression (or one `{{ }}` placeholder), or a literal list."""
	label = _("The items of loop node {0}").format(call.node_id)
	source = config_value(call.config, "items", "items_expression", "from")
	if source is None:
		raise LoopError(_("Loop node {0} needs items (an expression giving a list).").format(call.node_id))
	if isinstance(source, str):
		source = source.strip()
		if source.startswith("{{") and source.endswith("}}") and source.count("{{") == 1:
			source = source[2:-2].strip()
		items = flow_context.evaluate(source, call.context, label)
	else:
		items = flow_context.interpolate(source, call.context, label)
	if not isinstance(items, list):
		raise LoopError(_("{0} must be a list, not {1}.").format(label, type(items).__name__))
	if len(items) > MAX_ITEMS:
		raise LoopError(
			_("{0} are {1}; a loop goes through at most {2} items.").format(label, len(items), MAX_ITEMS)
		)
	return items


def targets(call: NodeCall) -> tuple[str | None, str | None]:
	"""(body, done): the node's settings, else the edges leaving its body / done handles; without either,
	done is the loop's other edge (one that is not on_failure and does not lead to the body)."""
	found = {
		handle: config_value(call.config, handle, f"{handle}_node", f"{handle}_node_id") for handle in HANDLES
	}
	edges = call.graph.edges_from(call.node_id)
	for edge in edges:
		handle = edge_handle(edge)
		if handle in found and not found[handle]:
			found[handle] = edge.get("target")
	if found["body"] and not found["done"]:
		others = [
			edge.get("target")
			for edge in edges
			if edge_handle(edge) is None
			and edge_type(edge) != "on_failure"
			and edge.get("target") != found["body"]
		]
		found["done"] = others[0] if others else None
	return found["body"], found["done"]


def edge_handle(edge: dict) -> str | None:
	"""The handle an edge leaves its node from: `sourceHandle` (as the canvas writes it) or `meta.handle`."""
	data = edge.get("data") if isinstance(edge.get("data"), dict) else {}
	for source in (edge, data, edge.get("meta"), data.get("meta")):
		if isinstance(source, dict):
			value = source.get("sourceHandle") or source.get("handle")
			if value:
				return str(value).strip().lower()
	return None


EXECUTORS = {"loop": loop}
ROUTING = {"loop": SELF}

SCHEMAS = {
	"loop": node_schema(
		"Loop",
		"RotateCw",
		"control",
		"Runs its body once per item of a list (item and index are set for each).",
		setting(
			"items",
			"Items",
			"expression",
			"An expression giving a list (at most 1,000 items).",
			required=True,
		),
		setting(
			"body",
			"Body node",
			"node_select",
			"The node the body starts at (else the edge from the body handle).",
		),
		setting(
			"done",
			"Done node",
			"node_select",
			"The node after the loop (else the edge from the done handle).",
		),
	),
}
