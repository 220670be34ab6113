"""Shared helpers of the service tool modules: parameter rows and argument checks."""

import json
from typing import Any

import frappe
from frappe import _

MAX_ITEMS = 50


def param(fieldname: str, type_: str, description: str, required: int = 0) -> dict:
	"""One parameter row of a `huf_tools` definition."""
	return {
		"fieldname": fieldname,
		"label": fieldname.replace("_", " ").title(),
		"type": type_,
		"required": required,
		"description": description,
	}


def tool(
	name: str, function: str, description: str, parameters: list[dict], requires_approval: bool = False
) -> dict:
	"""A `huf_tools` definition of an integration tool; `requires_approval` for the tools that send
	messages outside the site or delete (a new tool's Requires Approval starts ticked)."""
	definition = {
		"tool_name": name,
		"tool_type": "Integrations",
		"function_path": function,
		"description": description,
		"parameters": [*parameters, SETTINGS_PARAM],
	}
	if requires_approval:
		definition["requires_approval"] = 1
	return definition


def choice(fieldname: str, description: str, options: tuple | list, required: int = 0) -> dict:
	"""A string parameter restricted to `options`."""
	return {**param(fieldname, "string", description, required), "options": "\n".join(options)}


def run_action(actions: dict, action: str | None, values: dict):
	"""The result of `actions[action](values)` for the action tools (one tool, several actions)."""
	handler = actions.get(str(action or "").strip())
	if handler is None:
		frappe.throw(
			_("action must be one of: {0}.").format(", ".join(actions)),
			frappe.ValidationError,
		)
	return handler(values)


SETTINGS_PARAM = param(
	"settings", "string", "Name of the Integration Settings to use; empty: the service's default."
)


def require(value: Any, label: str) -> Any:
	"""`value`, or a ValidationError naming the missing argument."""
	if value in (None, "", [], {}):
		frappe.throw(_("{0} is required.").format(label), frappe.ValidationError)
	return value


def limit_of(limit: Any, default: int = 10, maximum: int = MAX_ITEMS) -> int:
	"""A list size between 1 and `maximum`."""
	try:
		value = int(limit or default)
	except (TypeError, ValueError):
		frappe.throw(_("limit must be a whole number."), frappe.ValidationError)
	return max(1, min(value, maximum))


def offset_of(offset: Any) -> int:
	"""How many rows to skip: a whole number, 0 or more."""
	try:
		return max(0, int(offset or 0))
	except (TypeError, ValueError):
		frappe.throw(_("offset must be a whole number."), frappe.ValidationError)


def json_arg(value: Any, label: str, types: tuple = (dict, list)) -> Any:
	"""A JSON argument the model may pass as an object or as JSON text."""
	if isinstance(value, str):
		try:
			value = json.loads(value)
		except ValueError:
			frappe.throw(_("{0} must be valid JSON.").format(label), frappe.ValidationError)
	if not isinstance(value, types):
		names = " or ".join("an object" if t is dict else "a list" for t in types)
		frappe.throw(_("{0} must be {1}.").format(label, names), frappe.ValidationError)
	return value


def list_arg(value: Any) -> list[str]:
	"""A list of strings from a list or a comma-separated text."""
	if not value:
		return []
	if isinstance(value, str):
		if value.strip().startswith("["):
			value = json_arg(value, "list", (list,))
		else:
			value = value.split(",")
	return [str(v).strip() for v in value if str(v).strip()]


def given(values: dict, keys) -> dict:
	"""The entries of `values` under `keys` that are given (not None or empty)."""
	return {key: values[key] for key in keys if values.get(key) not in (None, "", [], {})}


def cap_text(text: str | None, limit: int = 20000) -> tuple[str, bool]:
	"""`text` cut to `limit` characters, and whether it was cut."""
	text = text or ""
	return (text[:limit], True) if len(text) > limit else (text, False)
