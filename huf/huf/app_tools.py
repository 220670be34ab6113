"""Tools that installed apps register through their `huf_tools` hook.

A hook entry is the dotted path of a tool definition (a dict), of a list of definitions, or of a
function returning either; entries may be nested lists of such paths:

	huf_tools = ["my_app.tools.custom_tool", ["my_app.tools.tool1", "my_app.tools.tool2"]]

A definition has `tool_name`, `description`, `function_path`, `parameters` (rows like Agent Function
Params: fieldname, label, type, required, description, options) and optionally `tool_type` and
`pass_parameters_as_json`, and `requires_approval` (1: the tool deletes or sends outside the site, so when
it is first synced its Requires Approval starts ticked), and `function_path_aliases` (other dotted paths
that name the same function, e.g. where an earlier version of the app had it: a tool record with such a
path resolves to this definition). Only functions registered this way may back an "App Provided" tool.
"""

from collections.abc import Iterator

import frappe


def get_registered_tools(app: str | None = None) -> list[tuple[str, dict]]:
	"""(app, definition) for every tool registered by `app` (default: every installed app, in install order)."""
	out: list[tuple[str, dict]] = []
	for name in [app] if app else frappe.get_installed_apps():
		for entry in _flatten(frappe.get_hooks("huf_tools", app_name=name)):
			for definition in _resolve(entry, name):
				out.append((name, definition))
	return out


def find_registered_tool(function_path: str) -> tuple[str, dict] | None:
	"""The (app, definition) that registers `function_path` (or names it among its `function_path_aliases`),
	if any installed app does."""
	registered = get_registered_tools()
	for app, definition in registered:
		if definition.get("function_path") == function_path:
			return app, definition
	for app, definition in registered:
		if function_path in (definition.get("function_path_aliases") or ()):
			return app, definition
	return None


def _flatten(entries) -> Iterator:
	if isinstance(entries, list | tuple):
		for entry in entries:
			yield from _flatten(entry)
	elif entries:
		yield entries


def _resolve(entry, app: str) -> list[dict]:
	value = entry
	try:
		if isinstance(value, str):
			value = frappe.get_attr(value)
		if callable(value):
			value = value()
	except Exception:
		frappe.logger("huf").warning(
			f"huf_tools entry {entry!r} of app {app} could not be loaded", exc_info=True
		)
		return []
	definitions = value if isinstance(value, list | tuple) else [value]
	return [d for d in definitions if isinstance(d, dict) and d.get("function_path")]
