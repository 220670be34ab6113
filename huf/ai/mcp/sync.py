"""Tool sync: fetch a server's tools, cache them and keep one MCP Server Tool row per tool.

A tool keeps its Enabled choice across syncs; tools the server no longer offers are removed. The
agents' Agent MCP Server rows get the server URL and the number of enabled tools.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, get_datetime, now_datetime

from huf.ai.mcp.connection import list_tools, with_server


def sync_server(server: str | Any) -> dict:
	"""Sync the tools of one MCP Server (no permission check: callers check)."""
	doc = server if not isinstance(server, str) else frappe.get_doc("MCP Server", server)
	tools = with_server(doc, list_tools)
	enabled_before = {row.tool_name: cint(row.enabled) for row in doc.tools}
	doc.set("tools", [])
	for tool in tools:
		doc.append(
			"tools",
			{
				"tool_name": tool["name"],
				"enabled": enabled_before.get(tool["name"], 1),
				"description": tool["description"],
				"parameters": json.dumps(tool["parameters"], indent=1),
			},
		)
	doc.available_tools = json.dumps(tools, indent=1)
	doc.last_sync = now_datetime()
	doc.flags.ignore_permissions = True
	doc.save()  # on_update refreshes the agents' rows
	added = [t["name"] for t in tools if t["name"] not in enabled_before]
	removed = [name for name in enabled_before if name not in {t["name"] for t in tools}]
	return {
		"success": True,
		"server": doc.name,
		"tool_count": len(tools),
		"enabled_count": sum(1 for row in doc.tools if row.enabled),
		"tools": [t["name"] for t in tools],
		"added": added,
		"removed": removed,
		"last_sync": str(doc.last_sync),
	}


def set_tool_enabled(doc: Any, tool_name: str, enabled: int | str) -> dict:
	"""Enable or disable one synced tool of the MCP Server `doc` for every agent (no permission check:
	callers check write)."""
	row = next((row for row in doc.tools if row.tool_name == tool_name), None)
	if row is None:
		frappe.throw(_("MCP server {0} has no tool {1}: sync its tools first.").format(doc.name, tool_name))
	row.enabled = 1 if cint(enabled) else 0
	doc.save()
	return {"tool_name": tool_name, "enabled": row.enabled}


def update_agent_rows(doc: Any) -> None:
	"""Refresh `server_url` and `tool_count` of every Agent MCP Server row pointing at `doc`."""
	enabled = sum(1 for row in doc.tools if row.enabled)
	frappe.db.set_value(
		"Agent MCP Server",
		{"mcp_server": doc.name},
		{"server_url": doc.server_url, "tool_count": enabled},
		update_modified=False,
	)


def is_due(doc: Any, now=None) -> bool:
	"""Whether an auto-syncing server's last sync is older than its interval."""
	if not (cint(doc.enabled) and cint(doc.enable_auto_sync)):
		return False
	if not doc.last_sync:
		return True
	hours = max(1, cint(doc.auto_sync_interval) or 24)
	return add_to_date(get_datetime(doc.last_sync), hours=hours) <= (now or now_datetime())


def auto_sync() -> dict:
	"""Hourly job: sync every enabled server with Enable Auto Sync whose interval has passed."""
	done, failed = [], []
	fields = ["name", "enabled", "enable_auto_sync", "auto_sync_interval", "last_sync"]
	for row in frappe.get_all("MCP Server", filters={"enabled": 1, "enable_auto_sync": 1}, fields=fields):
		if not is_due(row):
			continue
		try:
			sync_server(row.name)
			frappe.db.commit()
			done.append(row.name)
		except Exception as exc:
			frappe.db.rollback()
			failed.append(row.name)
			frappe.log_error(title=f"MCP auto-sync failed: {row.name}", message=str(exc))
			frappe.db.commit()
	return {"synced": done, "failed": failed}


def fill_agent_mcp_rows(doc: Any, method: str | None = None) -> None:
	"""Agent validate hook: each Agent MCP Server row shows its server's URL and enabled tool count."""
	for row in doc.get("agent_mcp_server") or []:
		if not row.mcp_server:
			continue
		row.server_url = frappe.db.get_value("MCP Server", row.mcp_server, "server_url")
		row.tool_count = frappe.db.count(
			"MCP Server Tool", {"parent": row.mcp_server, "parenttype": "MCP Server", "enabled": 1}
		)
