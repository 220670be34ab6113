"""The shared state of a flow run (Flow Run `context_json`) and what expressions and templates see of it.

    {"payload": <the trigger's input>, "trigger": {"type": ...}, "vars": {<set by transform nodes>},
     "nodes": {<node id>: {"status": "success" | "failure", "output": ..., "error": ...}},
     "last": <the output of the node that ran last>, "state": {<node id>: <its own bookkeeping, e.g. a loop's position>},
     "steps": [<one entry per hop: node_id, type, status, started_at, finished_at, duration_ms, agent_run>]}

Expressions and `{{ }}` templates (huf.huf.safe_expression: no calls, no attribute tricks) see the
names `payload`, `trigger`, `vars`, `nodes`, `last`, `input` (what resume_flow_run passed), and every
variable in `vars` by its own name (a loop node sets `item` and `index` there for its body).
"""

from __future__ import annotations

import json
from typing import Any

from huf.huf import safe_expression

MAX_CONTEXT_BYTES = 2 * 1024 * 1024


def new_context(payload: Any, trigger_type: str) -> dict:
	return {
		"payload": payload if payload is not None else {},
		"trigger": {"type": trigger_type},
		"vars": {},
		"nodes": {},
		"last": None,
		"state": {},
	}


def names(context: dict) -> dict:
	"""The values expressions and templates of this flow run may read."""
	values = {key: value for key, value in (context.get("vars") or {}).items() if isinstance(key, str)}
	values.update(
		{
			"payload": context.get("payload"),
			"trigger": context.get("trigger") or {},
			"vars": context.get("vars") or {},
			"nodes": context.get("nodes") or {},
			"last": context.get("last"),
			"input": context.get("input"),
		}
	)
	return values


def evaluate(expression: str, context: dict, label: str) -> Any:
	"""Evaluate a safe expression against the flow context (raises safe_expression.ExpressionError)."""
	return safe_expression.evaluate(expression, names(context), label)


def render(template: str, context: dict, label: str) -> str:
	"""Fill the `{{ expression }}` placeholders of `template` from the flow context."""
	return safe_expression.render(template, names(context), label)


def interpolate(value: Any, context: dict, label: str) -> Any:
	"""`value` with every string's placeholders filled, through dicts and lists. A string that is one
	placeholder and nothing else keeps the value's type (`"{{ payload.count }}"` -> 3, not "3")."""
	if isinstance(value, str):
		stripped = value.strip()
		if stripped.startswith("{{") and stripped.endswith("}}") and stripped.count("{{") == 1:
			return evaluate(stripped[2:-2].strip(), context, label)
		return render(value, context, label) if "{{" in value else value
	if isinstance(value, dict):
		return {key: interpolate(item, context, label) for key, item in value.items()}
	if isinstance(value, list):
		return [interpolate(item, context, label) for item in value]
	return value


def dumps(context: dict) -> str:
	"""The context as stored (JSON), refused when it outgrows `MAX_CONTEXT_BYTES`."""
	text = json.dumps(context, default=str)
	if len(text.encode()) > MAX_CONTEXT_BYTES:
		raise ValueError(f"the flow context grew beyond {MAX_CONTEXT_BYTES // 1024} KB")
	return text


def loads(value: Any) -> dict:
	if isinstance(value, dict):
		return value
	try:
		parsed = json.loads(value or "{}")
	except ValueError:
		parsed = {}
	return parsed if isinstance(parsed, dict) else {}
