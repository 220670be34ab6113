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
| `user_input` | human.input (Wait for input: a form an assignee answers) |
| `app_event` | trigger.app-event (the run's start: an app event's payload; huf/ai/flows/app_events.py starts it) |
| `script` | code (a script in the safe expression language, or Python through Frappe's safe_exec) |
| `mail` | email (queued through Frappe's email queue) |
| `files` | file (read, write or delete a Frappe File) |
| `dates` | date (now, today, format, add, subtract, difference) |

A module may also declare `CHECKS = {"type": check(node_id, config) -> list of problems}`: what is wrong
with a node's settings (schema.py `problem`), checked when a definition is saved or validated
(`config_problems`).
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable

from huf.ai.flows.graph import node_config
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
	"human.input": "user_input",
	"trigger.app-event": "app_event",
	"code": "script",
	"email": "mail",
	"file": "files",
	"date": "dates",
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


def config_problems(definition: dict) -> list[dict]:
	"""What is wrong with the settings of each node whose module checks them (its CHECKS): `{"message",
	"node_id", "field"?}`, beside the structural checks of huf.huf.flow_schema."""
	problems: list[dict] = []
	nodes = definition.get("nodes") if isinstance(definition, dict) else None
	for node in nodes if isinstance(nodes, list) else []:
		if not isinstance(node, dict) or not node.get("id"):
			continue
		module = MODULES.get(node.get("type") or "")
		if not module:
			continue
		checks = getattr(importlib.import_module(f"huf.ai.flows.nodes.{module}"), "CHECKS", {})
		check = checks.get(node["type"])
		if check:
			problems.extend(check(str(node["id"]), node_config(node)))
	return problems
