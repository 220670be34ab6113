"""One executor per node type; `executor_for(type)` finds it.

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

import importlib
from collections.abc import Callable

from huf.ai.flows.nodes.base import NodeCall, NodeResult

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
