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
		"human.input",
		"http_request",
		"condition",
		"transform",
		"loop",
		"end",
		"trigger.app-event",
		"code",
		"email",
		"file",
		"date",
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
	return [problem["message"] for problem in flow_problems(definition, flow_id)]


def flow_problems(definition, flow_id: str | None = None) -> list[dict]:
	"""Everything wrong with `definition`: `{"message", "node_id" | "edge_id" when it is about one}`."""
	if not isinstance(definition, dict):
		return [{"message": "The definition must be a JSON object."}]
	problems: list[dict] = []

	def add(message: str, **where) -> None:
		problems.append({"message": message, **{k: v for k, v in where.items() if v is not None}})

	if flow_id is not None and definition.get("id") != flow_id:
		add(f"The id of the definition ({definition.get('id')}) must equal the Flow ID ({flow_id}).")
	nodes, edges = definition.get("nodes"), definition.get("edges", [])
	if not isinstance(nodes, list):
		add("The definition needs a list of nodes.")
		return problems
	if not isinstance(edges, list):
		add("edges must be a list.")
		return problems

	ids: set[str] = set()
	for position, node in enumerate(nodes, 1):
		if not isinstance(node, dict) or not node.get("id"):
			add(f"Node {position} has no id.")
			continue
		node_id = node["id"]
		if node_id in ids:
			add(f"Node id {node_id} is used more than once.", node_id=node_id)
		ids.add(node_id)
		if node.get("type") not in NODE_TYPES:
			add(f"Node {node_id} has the unknown type {node.get('type')}.", node_id=node_id)
		elif node["type"] == "condition" and node_condition(node) is not None:
			error = expression_error(node_condition(node), f"The condition of node {node_id}")
			if error:
				add(error, node_id=node_id)

	entry = entry_node_id(definition)
	if not entry:
		if nodes:  # an empty flow is a draft: it has no first step yet
			add("The definition has no entry_node_id.")
	elif entry not in ids:
		add(f"The entry node {entry} does not exist.")

	for position, edge in enumerate(edges, 1):
		if not isinstance(edge, dict):
			add(f"Edge {position} is not an object.")
			continue
		label = edge.get("id") or f"{position}"
		edge_id = edge.get("id")
		for end in ("source", "target"):
			if edge.get(end) not in ids:
				add(f"Edge {label} has the unknown {end} node {edge.get(end)}.", edge_id=edge_id)
		kind = edge_type(edge)
		if kind not in EDGE_TYPES:
			add(f"Edge {label} has the unknown type {kind}.", edge_id=edge_id)
		elif kind == "expression":
			condition = edge_condition(edge)
			if not isinstance(condition, str) or not condition.strip():
				add(f"Expression edge {label} needs a condition.", edge_id=edge_id)
			else:
				error = expression_error(condition, f"The condition of edge {label}")
				if error:
					add(error, edge_id=edge_id)
	return problems
