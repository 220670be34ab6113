"""The sync of app-provided tools: what installed apps declare in their `huf_tools` hook.

`sync_tools()` upserts them as App Provided Agent Tool Functions, for the apps whose hooks.py changed
since the last sync (mtimes kept in Agent Settings > Tool Sync State), and removes the tools an app
no longer declares. It runs after every migrate and on demand (`huf.api.tools.sync_app_tools`,
System Managers, `force=1` to ignore the mtimes).
"""

import json
import os
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.huf.app_tools import get_registered_tools
from huf.huf.tool_schema import JSON_TYPES, TOOL_NAME_PATTERN

DEFAULT_APP_TOOL_TYPE = "App Provided"


# --- huf_tools discovery ---------------------------------------------------------------------------


def _iter_declared_tools(app: str | None = None) -> list[tuple[str, dict]]:
	"""(app, definition) for every tool declared in `huf_tools` (of `app`, or of every installed app)."""
	return get_registered_tools(app)


def validate_tool_def(d: Any) -> list[str]:
	"""What is wrong with a tool definition (empty when it is usable)."""
	if not isinstance(d, dict):
		return [_("a tool definition must be a dict")]
	errors = []
	for key in ("tool_name", "description", "function_path"):
		if not isinstance(d.get(key), str) or not d[key].strip():
			errors.append(_("{0} is required").format(key))
	if (
		isinstance(d.get("tool_name"), str)
		and d["tool_name"].strip()
		and not TOOL_NAME_PATTERN.match(d["tool_name"])
	):
		errors.append(_("tool_name may contain only letters, digits, _ and - (at most 64)"))
	parameters = d.get("parameters")
	if parameters is None:
		errors.append(_("parameters is required (a list, may be empty)"))
	elif not isinstance(parameters, list):
		errors.append(_("parameters must be a list"))
	else:
		for i, row in enumerate(parameters, start=1):
			if not isinstance(row, dict) or not row.get("fieldname"):
				errors.append(_("parameter {0} needs a fieldname").format(i))
			elif (row.get("type") or "string") not in JSON_TYPES:
				errors.append(
					_("parameter {0} has the unknown type {1}").format(row["fieldname"], row.get("type"))
				)
	if isinstance(d.get("function_path"), str) and d["function_path"].strip():
		try:
			function = frappe.get_attr(d["function_path"].strip())
		except Exception:
			errors.append(_("function {0} cannot be imported").format(d["function_path"]))
		else:
			if not callable(function):
				errors.append(_("{0} is not callable").format(d["function_path"]))
	return errors


def upsert_tool_doc(d: dict, app: str) -> str | None:
	"""Create or update the App Provided Agent Tool Function of a definition; "created"/"updated"/None."""
	name = d["tool_name"].strip()
	tool_type = d.get("tool_type") or DEFAULT_APP_TOOL_TYPE
	if not frappe.db.exists("Agent Tool Type", tool_type):
		frappe.get_doc({"doctype": "Agent Tool Type", "name1": tool_type}).insert(ignore_permissions=True)
	values = {
		"types": "App Provided",
		"provider_app": app,
		"tool_type": tool_type,
		"function_path": d["function_path"].strip(),
		"description": d["description"],
		"pass_parameters_as_json": cint(d.get("pass_parameters_as_json")),
	}
	rows = [_parameter_row(row) for row in d.get("parameters") or []]
	if frappe.db.exists("Agent Tool Function", name):
		doc = frappe.get_doc("Agent Tool Function", name)
		if doc.types != "App Provided" or doc.provider_app != app:
			raise frappe.DuplicateEntryError(_("the name {0} is already used by another tool").format(name))
		current = [_parameter_row(row.as_dict()) for row in doc.parameters]
		if all(doc.get(k) == v for k, v in values.items()) and current == rows:
			return None
		action = "updated"
	else:
		doc = frappe.new_doc("Agent Tool Function")
		doc.tool_name = name
		# unset: a new tool's kind (here the definition's `requires_approval`) decides; an existing
		# tool keeps what its administrator chose (huf/huf/tool_approval_defaults.py)
		doc.requires_approval = None
		action = "created"
	doc.update(values)
	doc.set("parameters", [])
	for row in rows:
		doc.append("parameters", row)
	doc.save(ignore_permissions=True)
	return action


def _parameter_row(row: dict) -> dict:
	fieldname = row.get("fieldname")
	return {
		"fieldname": fieldname,
		"label": row.get("label") or frappe.unscrub(fieldname or ""),
		"type": row.get("type") or "string",
		"required": cint(row.get("required")),
		"description": row.get("description") or None,
		"options": row.get("options") or None,
		"child_table_name": row.get("child_table_name") or None,
	}


def _get_app_modified_time(app_name: str) -> float:
	"""Modification time of the app's hooks.py (0 when it has none)."""
	try:
		return os.path.getmtime(frappe.get_app_path(app_name, "hooks.py"))
	except (OSError, ImportError):
		return 0.0


# --- sync --------------------------------------------------------------------------------------------


def sync_tools(apps: list[str] | None = None, force: bool = False) -> dict:
	"""Upsert declared tools of apps whose hooks.py changed; remove tools no longer declared."""
	installed = frappe.get_installed_apps()
	settings = frappe.get_single("Agent Settings")
	state = _load_state(settings.get("tool_sync_state"))
	summary: dict = {"synced": [], "skipped": [], "created": [], "updated": [], "removed": [], "errors": []}
	for app in apps or installed:
		mtime = _get_app_modified_time(app)
		previous = state.get(app) or {}
		if not force and previous and previous.get("mtime") == mtime:
			summary["skipped"].append(app)
			continue
		declared = _sync_app(app, summary)
		state[app] = {"mtime": mtime, "tools": sorted(declared)}
		summary["synced"].append(app)
	if apps is None:
		for app in [a for a in state if a not in installed]:
			_remove_tools(app, set(), summary)
			state.pop(app, None)
	settings.db_set("tool_sync_state", json.dumps(state, sort_keys=True), update_modified=False)
	if summary["errors"]:
		frappe.logger("huf").warning("huf_tools sync: " + "; ".join(summary["errors"]))
	return summary


def sync_tools_after_migrate() -> None:
	"""after_migrate: sync the apps whose hooks.py changed (errors are logged, never fatal)."""
	try:
		sync_tools()
	except Exception:
		frappe.log_error(title="Huf app tool sync failed")


def forget_app(app: str) -> dict:
	"""after_app_uninstall: delete the App Provided tools of `app` (and their Agent Tool rows) and its sync state."""
	summary: dict = {"synced": [], "skipped": [], "created": [], "updated": [], "removed": [], "errors": []}
	_remove_tools(app, set(), summary)
	settings = frappe.get_single("Agent Settings")
	state = _load_state(settings.get("tool_sync_state"))
	if state.pop(app, None) is not None:
		settings.db_set("tool_sync_state", json.dumps(state, sort_keys=True), update_modified=False)
	return summary


def _sync_app(app: str, summary: dict) -> set[str]:
	declared: set[str] = set()
	for _app, definition in _iter_declared_tools(app):
		label = definition.get("tool_name") or definition.get("function_path") or "?"
		errors = validate_tool_def(definition)
		name = str(definition.get("tool_name") or "").strip()
		if not errors and name in declared:
			errors = [_("declared twice")]
		if errors:
			summary["errors"].append(f"{app}: {label}: " + ", ".join(errors))
			if name and name not in declared:
				declared.add(name)  # still declared, only broken: keep its tool (and the agents' links)
			continue
		declared.add(name)
		try:
			action = upsert_tool_doc(definition, app)
		except Exception as exc:
			frappe.clear_messages()
			summary["errors"].append(f"{app}: {label}: {exc}")
			continue
		if action:
			summary[action].append(name)
	_remove_tools(app, declared, summary)
	return declared


def _remove_tools(app: str, keep: set[str], summary: dict) -> None:
	"""Delete the App Provided tools of `app` not in `keep` (and the Agent Tool rows linking them)."""
	stale = frappe.get_all(
		"Agent Tool Function",
		filters={"types": "App Provided", "provider_app": app, "name": ("not in", list(keep) or [""])},
		pluck="name",
	)
	for name in stale:
		agents = frappe.get_all("Agent Tool", filters={"tool": name, "parenttype": "Agent"}, pluck="parent")
		frappe.db.delete("Agent Tool", {"tool": name})
		for agent in set(agents):
			frappe.clear_document_cache("Agent", agent)
		frappe.delete_doc("Agent Tool Function", name, ignore_permissions=True, force=True)
		summary["removed"].append(name)


def _load_state(raw: Any) -> dict:
	if isinstance(raw, dict):
		return dict(raw)
	try:
		value = json.loads(raw or "{}")
	except (TypeError, ValueError):
		return {}
	return value if isinstance(value, dict) else {}
