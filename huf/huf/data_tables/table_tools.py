"""Agent tools for a data table: the standard document tools (Get List, Get Document, Create, Update,
Delete Document) on its `HF <table>` DocType, made once and reused, optionally given to an agent.

The tools run as the run's user like every document tool, so the table's DocPerms and row-level
capabilities decide what an agent may do with its records.
"""

import re
from typing import Any

import frappe
from frappe import _

from huf.huf.capabilities import check_capability
from huf.huf.data_tables.records import check_access, table_of, value_fields

TOOL_TYPE = "Document Operations"
# action -> (tool type, tool name suffix, description)
ACTIONS: dict[str, tuple[str, str, str]] = {
	"list": (
		"Get List",
		"list_records",
		"List records of the data table {0} (filters, fields, order_by, limit).",
	),
	"get": ("Get Document", "get_record", "Get one record of the data table {0} by its ID."),
	"create": ("Create Document", "create_record", "Create a record in the data table {0}."),
	"update": ("Update Document", "update_record", "Change fields of one record of the data table {0}."),
	"delete": ("Delete Document", "delete_record", "Delete one record of the data table {0} by its ID."),
}


def create_table_tools(name: str, agent: str | None = None, actions: Any = None) -> dict:
	"""The tools of `actions` (default all) on data table `name`, reused when they exist; given to `agent`."""
	table = table_of(name)
	actions = _actions(actions)
	check_capability("tools.create")
	frappe.has_permission("Agent Tool Function", "create", throw=True)
	check_access(table.doctype_name, "read")
	agent_doc = None
	if agent:
		if not frappe.db.exists("Agent", agent):
			frappe.throw(_("Agent {0} not found.").format(agent), frappe.DoesNotExistError)
		agent_doc = frappe.get_doc("Agent", agent)
		agent_doc.check_permission("write")
	tools = [_tool(table, action) for action in actions]
	if agent_doc is not None:
		have = {row.tool for row in agent_doc.get("agent_tool") or []}
		for tool in tools:
			if tool not in have:
				agent_doc.append("agent_tool", {"tool": tool})
		agent_doc.save()
	return {"tools": tools, "agent": agent_doc.name if agent_doc else None}


def _actions(actions: Any) -> list[str]:
	if actions in (None, "", []):
		return list(ACTIONS)
	actions = frappe.parse_json(actions) if isinstance(actions, str) and actions.startswith("[") else actions
	if isinstance(actions, str):
		actions = [a.strip() for a in actions.split(",")]
	unknown = [a for a in actions if a not in ACTIONS] if isinstance(actions, list) else [actions]
	if unknown:
		frappe.throw(
			_("Unknown action {0}; choose from {1}.").format(
				", ".join(str(a) for a in unknown), ", ".join(ACTIONS)
			)
		)
	return list(dict.fromkeys(actions))


def tool_name_of(table_name: str, action: str) -> str:
	"""The tool's name as the model sees it: letters, digits and _ only (at most 64 characters)."""
	slug = re.sub(r"[^a-z0-9]+", "_", table_name.lower()).strip("_")[:48] or "table"
	return f"{slug}_{ACTIONS[action][1]}"


def _tool(table, action: str) -> str:
	types, _suffix, description = ACTIONS[action]
	tool_name = tool_name_of(table.table_name, action)
	existing = frappe.db.get_value(
		"Agent Tool Function", tool_name, ["types", "reference_doctype"], as_dict=True
	)
	if existing:
		if existing.types != types or existing.reference_doctype != table.doctype_name:
			frappe.throw(
				_("A tool named {0} already exists for something else; rename it first.").format(tool_name),
				frappe.DuplicateEntryError,
			)
		return tool_name
	return (
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": tool_name,
				"types": types,
				"tool_type": TOOL_TYPE,
				"reference_doctype": table.doctype_name,
				"description": _describe(description.format(table.table_name), table.doctype_name, action),
			}
		)
		.insert()
		.name
	)


def _describe(text: str, doctype: str, action: str) -> str:
	if action not in ("list", "create", "update"):
		return text
	fields = ", ".join(f"{df.fieldname} ({df.fieldtype})" for df in value_fields(doctype))
	return f"{text} Fields: {fields}." if fields else text


def remove_table_tools(doctype: str) -> list[str]:
	"""Delete every tool on `doctype` (a table being deleted) after taking it off the agents that have it."""
	tools = frappe.get_all("Agent Tool Function", filters={"reference_doctype": doctype}, pluck="name")
	if not tools:
		return []
	agents = frappe.get_all(
		"Agent Tool", filters={"parenttype": "Agent", "tool": ["in", tools]}, pluck="parent", distinct=True
	)
	for agent in agents:
		doc = frappe.get_doc("Agent", agent)
		doc.set("agent_tool", [row for row in doc.agent_tool if row.tool not in tools])
		doc.save(ignore_permissions=True)
	for tool in tools:
		frappe.delete_doc("Agent Tool Function", tool, ignore_permissions=True, force=True)
	return tools
