"""The MCP client's public API (the spec's module): tools for agents and the spec's whitelisted endpoints
(sync, test, an agent's servers, the available servers). Huf's other MCP endpoints (a tool switched on or
off, OAuth connect, discover, disconnect) are in `huf.api.mcp`.

Huf is an MCP client only. Connections, auth and OAuth live in `huf.ai.mcp`; see docs/mcp.md.
"""

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.mcp.access import load_server
from huf.ai.mcp.connection import MCPClientError, check_connection, with_server
from huf.ai.mcp.provider import create_mcp_tools, execute_mcp_tool
from huf.ai.mcp.sync import auto_sync, sync_server

__all__ = [
	"MCPClientError",
	"auto_sync_mcp_server_tools",
	"create_mcp_tools",
	"execute_mcp_tool",
	"get_agent_mcp_servers",
	"get_available_mcp_servers",
	"sync_mcp_server_tools",
	"test_mcp_connection",
]

SERVER_FIELDS = [
	"name",
	"server_name",
	"description",
	"enabled",
	"transport_type",
	"server_url",
	"auth_type",
	"tool_namespace",
	"timeout_seconds",
	"oauth_status",
	"last_sync",
	"enable_auto_sync",
	"auto_sync_interval",
]


@frappe.whitelist(methods=["POST"])
def sync_mcp_server_tools(server_name: str) -> dict:
	"""Fetch the server's tools, cache them in `available_tools` and its Tools table (needs write)."""
	doc = load_server(server_name, "write")
	return sync_server(doc)


@frappe.whitelist()
def test_mcp_connection(server_name: str) -> dict:
	"""Connect and initialize; `{"success", "message", ...server info}` (needs read)."""
	doc = load_server(server_name, "read")
	try:
		info = with_server(doc, check_connection)
	except MCPClientError as exc:
		return {"success": False, "message": str(exc), "error": str(exc)}
	message = _("Connected to {0}: {1} tools available.").format(
		info.get("server_name") or doc.name, info["tool_count"]
	)
	return {"success": True, "message": message, **info}


@frappe.whitelist()
def get_agent_mcp_servers(agent_name: str) -> list[dict]:
	"""The MCP servers linked to an agent (those the caller may read) with their details and enabled tools."""
	agent = frappe.get_doc("Agent", agent_name)
	agent.check_permission("read")
	servers = []
	for row in agent.get("agent_mcp_server") or []:
		if not row.mcp_server or not frappe.db.exists("MCP Server", row.mcp_server):
			continue
		if not frappe.has_permission("MCP Server", "read", doc=row.mcp_server):
			continue  # e.g. Huf Viewers read agents, not the servers (URL, auth type) behind them
		details = frappe.db.get_value("MCP Server", row.mcp_server, SERVER_FIELDS, as_dict=True)
		tools = frappe.get_all(
			"MCP Server Tool",
			filters={"parent": row.mcp_server, "parenttype": "MCP Server"},
			fields=["tool_name", "enabled", "description"],
			order_by="idx asc",
		)
		servers.append(
			{
				**details,
				"mcp_server": row.mcp_server,
				"row_name": row.name,
				"enabled_for_agent": cint(row.enabled),
				"server_enabled": cint(details.enabled),
				"tool_count": sum(1 for t in tools if t.enabled),
				"tools": tools,
			}
		)
	return servers


@frappe.whitelist()
def get_available_mcp_servers() -> list[dict]:
	"""Every enabled MCP server the user may read (no secrets)."""
	return frappe.get_list(
		"MCP Server", filters={"enabled": 1}, fields=SERVER_FIELDS, order_by="server_name asc"
	)


def auto_sync_mcp_server_tools() -> dict:
	"""Hourly scheduler job (not an endpoint): sync servers with Enable Auto Sync when their interval passed."""
	return auto_sync()
