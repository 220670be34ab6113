"""A flow definition as the engine reads it: nodes by id, each node's config, its outgoing edges in order.

The definition is React Flow compatible JSON (docs/flows.md): `{"id", "entry_node_id", "nodes": [{"id",
"type", "data": {...}}], "edges": [{"id", "source", "target", "type", "priority", "condition", "meta"}]}`.
Edge fields may also sit in the edge's `data` (as the canvas writes them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from huf.huf.flow_schema import edge_condition, edge_type, entry_node_id


def node_config(node: dict) -> dict:
	"""A node's settings: `data.config` when the canvas nests them, else `data`, else `config`."""
	data = node.get("data") if isinstance(node.get("data"), dict) else {}
	if isinstance(data.get("config"), dict):
		return {**{k: v for k, v in data.items() if k != "config"}, **data["config"]}
	return data or (node.get("config") if isinstance(node.get("config"), dict) else {})


def edge_priority(edge: dict) -> float:
	data = edge.get("data") if isinstance(edge.get("data"), dict) else {}
	value = edge.get("priority", data.get("priority", 0))
	try:
		return float(value or 0)
	except (TypeError, ValueError):
		return 0.0


def edge_outcome(edge: dict) -> str | None:
	"""`meta.outcome` of an edge leaving a human.approval node (approved / rejected), if any."""
	data = edge.get("data") if isinstance(edge.get("data"), dict) else {}
	for meta in (edge.get("meta"), data.get("meta"), data):
		if isinstance(meta, dict) and meta.get("outcome"):
			return str(meta["outcome"]).strip().lower()
	return None


@dataclass
class FlowGraph:
	definition: dict
	nodes: dict[str, dict] = field(default_factory=dict)
	outgoing: dict[str, list[dict]] = field(default_factory=dict)

	@classmethod
	def load(cls, definition: dict) -> FlowGraph:
		graph = cls(definition=definition)
		for node in definition.get("nodes") or []:
			graph.nodes[node["id"]] = node
		for position, edge in enumerate(definition.get("edges") or []):
			graph.outgoing.setdefault(edge.get("source"), []).append((position, edge))
		for source, edges in graph.outgoing.items():
			# priority descending; equal priorities keep the definition's order
			graph.outgoing[source] = [
				e for _, e in sorted(edges, key=lambda pe: (-edge_priority(pe[1]), pe[0]))
			]
		return graph

	@property
	def entry(self) -> str | None:
		return entry_node_id(self.definition)

	def node(self, node_id: str) -> dict | None:
		return self.nodes.get(node_id)

	def edges_from(self, node_id: str) -> list[dict]:
		return self.outgoing.get(node_id, [])

	def targets(self, node_id: str) -> list[dict]:
		"""The candidate next steps of `node_id` (for router.llm and the agentic orchestrator)."""
		return [
			{
				"edge_id": edge.get("id"),
				"node_id": edge.get("target"),
				"type": (self.nodes.get(edge.get("target")) or {}).get("type"),
				"label": edge.get("label") or (edge.get("data") or {}).get("label") or "",
				"condition": edge_condition(edge) if edge_type(edge) == "expression" else None,
			}
			for edge in self.edges_from(node_id)
		]


def config_value(config: dict, *keys: str, default: Any = None) -> Any:
	"""The first of `keys` set in `config` (node settings have synonyms, e.g. `user` / `users`)."""
	for key in keys:
		if config.get(key) not in (None, ""):
			return config[key]
	return default
