"""Structural checks of a flow graph (the Flow Definition's definition_json).

Edge and condition-node expressions must be safe expressions (huf.huf.safe_expression): the flow
engine evaluates them with `safe_expression.evaluate` on plain values, never with eval/safe_eval.
"""

from huf.huf.safe_expression import ExpressionError, check

NODE_TYPES = frozenset(
	(
		"trigger.webhook",
		"trigger.schedule",
		"trigger.doc-event",
		"agent.run",
		"tool.call",
		"router.llm",
		"human.approval",
		"http_request",
		"condition",
		"transform",
		"loop",
		"end",
	)
)
EDGE_TYPES = frozenset(("always", "on_success", "on_failure", "expression"))


def entry_node_id(definition: dict) -> str | None:
	"""The id of the node a run starts at (`entry_node_id`, or `entry` as written by older editors)."""
	return definition.get("entry_node_id") or definition.get("entry")


def edge_type(edge: dict) -> str:
	return edge.get("type") or (edge.get("data") or {}).get("type") or "always"


def edge_condition(edge: dict) -> str | None:
	return edge.get("condition") or (edge.get("data") or {}).get("condition")


def node_condition(node: dict) -> str | None:
	"""The expression of a `condition` node (`condition` or `expression`, on the node or in its data)."""
	data = node.get("data") if isinstance(node.get("data"), dict) else {}
	for source in (node, data):
		for key in ("condition", "expression"):
			if source.get(key) not in (None, ""):
				return source[key]
	return None


def expression_error(expression, label: str) -> str | None:
	"""Why `expression` is not a safe expression (None when it is)."""
	try:
		check(expression, label=label)
	except ExpressionError as e:
		return str(e)
	return None


def flow_errors(definition, flow_id: str | None = None) -> list[str]:
	"""Everything wrong with `definition`, as readable sentences (empty list when valid)."""
	if not isinstance(definition, dict):
		return ["The definition must be a JSON object."]
	errors: list[str] = []
	if flow_id is not None and definition.get("id") != flow_id:
		errors.append(
			f"The id of the definition ({definition.get('id')}) must equal the Flow ID ({flow_id})."
		)
	nodes, edges = definition.get("nodes"), definition.get("edges", [])
	if not isinstance(nodes, list) or not nodes:
		return [*errors, "The definition needs a non-empty list of nodes."]
	if not isinstance(edges, list):
		return [*errors, "edges must be a list."]

	ids: set[str] = set()
	for position, node in enumerate(nodes, 1):
		if not isinstance(node, dict) or not node.get("id"):
			errors.append(f"Node {position} has no id.")
			continue
		if node["id"] in ids:
			errors.append(f"Node id {node['id']} is used more than once.")
		ids.add(node["id"])
		if node.get("type") not in NODE_TYPES:
			errors.append(f"Node {node['id']} has the unknown type {node.get('type')}.")
		elif node["type"] == "condition" and node_condition(node) is not None:
			error = expression_error(node_condition(node), f"The condition of node {node['id']}")
			if error:
				errors.append(error)

	entry = entry_node_id(definition)
	if not entry:
		errors.append("The definition has no entry_node_id.")
	elif entry not in ids:
		errors.append(f"The entry node {entry} does not exist.")

	for position, edge in enumerate(edges, 1):
		if not isinstance(edge, dict):
			errors.append(f"Edge {position} is not an object.")
			continue
		label = edge.get("id") or f"{position}"
		for end in ("source", "target"):
			if edge.get(end) not in ids:
				errors.append(f"Edge {label} has the unknown {end} node {edge.get(end)}.")
		kind = edge_type(edge)
		if kind not in EDGE_TYPES:
			errors.append(f"Edge {label} has the unknown type {kind}.")
		elif kind == "expression":
			condition = edge_condition(edge)
			if not isinstance(condition, str) or not condition.strip():
				errors.append(f"Expression edge {label} needs a condition.")
			else:
				error = expression_error(condition, f"The condition of edge {label}")
				if error:
					errors.append(error)
	return errors
