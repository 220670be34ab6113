"""The MCP client's public API (the spec's module): tools for agents and the whitelisted endpoints.

Huf is an MCP client only. Connections, auth and OAuth live in `huf.ai.mcp`; see docs/mcp.md.
"""

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.mcp import oauth
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


def _server(server_name: str, ptype: str) -> Any:
	if not server_name or not frappe.db.exists("MCP Server", server_name):
		frappe.throw(_("MCP Server {0} not found.").format(server_name), frappe.DoesNotExistError)
	doc = frappe.get_doc("MCP Server", server_name)
	doc.check_permission(ptype)
	return doc


@frappe.whitelist(methods=["POST"])
def sync_mcp_server_tools(server_name: str) -> dict:
	"""Fetch the server's tools, cache them in `available_tools` and its Tools table (needs write)."""
	doc = _server(server_name, "write")
	return sync_server(doc)


@frappe.whitelist()
def test_mcp_connection(server_name: str) -> dict:
	"""Connect and initialize; `{"success", "message", ...server info}` (needs read)."""
	doc = _server(server_name, "read")
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


@frappe.whitelist(methods=["POST"])
def set_mcp_tool_enabled(server_name: str, tool_name: str, enabled: int | str = 1) -> dict:
	"""Enable or disable one synced tool of a server for every agent (needs write)."""
	doc = _server(server_name, "write")
	row = next((row for row in doc.tools if row.tool_name == tool_name), None)
	if row is None:
		frappe.throw(
			_("MCP server {0} has no tool {1}: sync its tools first.").format(server_name, tool_name)
		)
	row.enabled = 1 if cint(enabled) else 0
	doc.save()
	return {"tool_name": tool_name, "enabled": row.enabled}


@frappe.whitelist(methods=["POST"])
def start_mcp_oauth(server_name: str) -> dict:
	"""Begin the OAuth authorization code + PKCE flow; the browser goes to `authorization_url`."""
	doc = _server(server_name, "write")
	if doc.auth_type != "oauth":
		frappe.throw(_("MCP server {0} does not use OAuth.").format(server_name))
	return {"authorization_url": oauth.start_authorization(doc)}


@frappe.whitelist(methods=["POST"])
def discover_mcp_oauth(server_name: str) -> dict:
	"""Discover the server's authorization server and endpoints (RFC 9728, RFC 8414)."""
	doc = _server(server_name, "write")
	meta = oauth.discover(doc)
	return {
		"authorization_endpoint": meta.get("authorization_endpoint"),
		"token_endpoint": meta.get("token_endpoint"),
		"registration_endpoint": meta.get("registration_endpoint"),
	}


@frappe.whitelist(methods=["POST"])
def disconnect_mcp_oauth(server_name: str) -> dict:
	"""Forget the server's OAuth tokens."""
	oauth.disconnect(_server(server_name, "write"))
	return {"oauth_status": "Not Connected"}


def auto_sync_mcp_server_tools() -> dict:
	"""Hourly scheduler job (not an endpoint): sync servers with Enable Auto Sync when their interval passed."""
	return auto_sync()
