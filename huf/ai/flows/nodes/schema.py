"""How a node module describes its settings form (its `SCHEMAS`, served by `get_node_schemas`).

A node module may declare `SCHEMAS = {node type: node_schema(...)}` beside its `EXECUTORS`: the label,
icon (a lucide icon name), category (`trigger`, `ai`, `control`, `integration`, `transform`), a short
description and one `setting(...)` per key of the node's settings that its executor reads.

A setting is `{"name", "label", "type", "description"}` plus, where they apply, `required`, `default`,
`options` (for `select`) and `supports_variables` (the value is a `{{ }}` template over the flow
context). Types: `string`, `text`, `number`, `boolean`, `select`, `json`, `expression` (a safe
expression), `agent_select`, `tool_select`, `node_select`, `doctype_select`, `approvers`,
`transform_list`.
"""

from __future__ import annotations

from typing import Any


def setting(name: str, label: str, kind: str, description: str = "", **extra: Any) -> dict:
	"""One key of a node's settings."""
	return {"name": name, "label": label, "type": kind, "description": description, **extra}


def node_schema(label: str, icon: str, category: str, description: str, *settings: dict) -> dict:
	"""A node type's form: what the canvas shows and the settings its executor reads."""
	return {
		"label": label,
		"icon": icon,
		"category": category,
		"description": description,
		"config_schema": list(settings),
	}
