"""One executor per node type; `executor_for(type)` finds it, `routing_of(type)` how its run goes on.

A node module may declare `ROUTING = {"type": "self" | "outcome"}`: "self" nodes choose their next node
(`next_node_id`) and only their on_failure edges are followed otherwise; "outcome" nodes route by the
edge whose `meta.outcome` matches their result's outcome. Every other node routes by its edges. It
declares `SCHEMAS = {"type": node_schema(...)}` (huf/ai/flows/nodes/schema.py): the settings form
`schemas()` serves (the API's `get_node_schemas`).

| module | node types |
| --- | --- |
| `logic` | trigger.webhook, trigger.schedule, trigger.doc-event (the run's start: its payload), condition, end |
| `transform` | transform (copy / map / template / concat / split) |
| `loop` | loop (body and done routing) |
| `tool` | tool.call (deterministic, through the agents' tool executor) |
| `http` | http_request (through the SSRF-safe client) |
| `agent` | agent.run (through the queue-first run path) |
| `router` | router.llm (the LLM picks among the candidate edges) |
| `approval` | human.approval |
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable

from huf.ai.flows.nodes.base import EDGES, NodeCall, NodeResult

MODULES = {
	"trigger.webhook": "logic",
	"trigger.schedule": "logic",
	"trigger.doc-event": "logic",
	"condition": "logic",
	"end": "logic",
	"transform": "transform",
	"loop": "loop",
	"tool.call": "tool",
	"http_request": "http",
	"agent.run": "agent",
	"router.llm": "router",
	"human.approval": "approval",
}


def executor_for(node_type: str) -> Callable[[NodeCall], NodeResult] | None:
	module = MODULES.get(node_type)
	if not module:
		return None
	return importlib.import_module(f"huf.ai.flows.nodes.{module}").EXECUTORS[node_type]


def routing_of(node_type: str | None) -> str:
	"""How a node of `node_type` picks its next node: EDGES, SELF or OUTCOME (the module's ROUTING)."""
	module = MODULES.get(node_type or "")
	if not module:
		return EDGES
	return getattr(importlib.import_module(f"huf.ai.flows.nodes.{module}"), "ROUTING", {}).get(
		node_type, EDGES
	)


def schemas() -> dict:
	"""Every node type a definition may use (huf.huf.flow_schema.NODE_TYPES), registered ones first, with
	its form (its module's SCHEMAS) and whether the server executes it (`has_backend`)."""
	from huf.huf.flow_schema import NODE_TYPES

	out = {}
	for node_type in [*MODULES, *sorted(NODE_TYPES - set(MODULES))]:
		module = MODULES.get(node_type)
		declared = {}
		if module:
			declared = getattr(importlib.import_module(f"huf.ai.flows.nodes.{module}"), "SCHEMAS", {})
		schema = declared.get(node_type) or {
			"label": node_type,
			"icon": "Circle",
			"category": "other",
			"description": "",
			"config_schema": [],
		}
		out[node_type] = {**copy.deepcopy(schema), "has_backend": executor_for(node_type) is not None}
	return out
