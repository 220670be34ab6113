"""Structural checks of a flow graph (the Flow Definition's definition_json)."""

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
	return errors
