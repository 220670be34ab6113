"""How a node module describes its settings form (its `SCHEMAS`, served by `get_node_schemas`).

A node module may declare `SCHEMAS = {node type: node_schema(...)}` beside its `EXECUTORS`: the label,
icon (a lucide icon name), category (`trigger`, `ai`, `control`, `integration`, `transform`), a short
description and one `setting(...)` per key of the node's settings that its executor reads.

A setting is `{"name", "label", "type", "description"}` plus, where they apply, `required`, `default`,
`options` (for `select`), `supports_variables` (the value is a `{{ }}` template over the flow
context) and `depends_on` (`{other setting: [values]}`: the setting applies, and the form shows it,
only while that setting has one of those values). Types: `string`, `text`, `number`, `boolean`, `select`, `json`, `expression` (a safe
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


def missing_settings(schema: dict, config: dict, node_id: str) -> list[dict]:
	"""A problem for each required setting of `schema` without a default that applies (its `depends_on`)
	and that `config` leaves empty, and each `select` value that is not one of its options: what the
	canvas's form (SchemaForm.tsx) marks too."""
	settings = schema.get("config_schema") or []
	filled = {
		**{item["name"]: item["default"] for item in settings if "default" in item},
		**{key: value for key, value in config.items() if value not in (None, "")},
	}
	problems = []
	for item in settings:
		if not applies(item, filled):
			continue
		value = config.get(item["name"])
		empty = value is None or (isinstance(value, str) and not value.strip())
		if item.get("required") and empty and "default" not in item:
			problems.append(problem(node_id, item["name"], f"{item['label']} is required."))
		elif item["type"] == "select" and not empty and value not in item.get("options", []):
			options = ", ".join(map(str, item["options"]))
			problems.append(
				problem(node_id, item["name"], f"{item['label']} must be one of {options}, not {value}.")
			)
	return problems


def applies(item: dict, config: dict) -> bool:
	"""Whether a setting applies to `config` (defaults filled in): each of its `depends_on` is met."""
	return all(
		str(config.get(name, "")) in map(str, values)
		for name, values in (item.get("depends_on") or {}).items()
	)


def problem(node_id: str, field: str | None, message: str) -> dict:
	"""One problem of a node's settings: `message` prefixed with the node, naming its field."""
	out = {"message": f"Node {node_id}: {message}", "node_id": node_id}
	if field:
		out["field"] = field
	return out
