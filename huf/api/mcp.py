"""Huf's MCP Server endpoints beside the spec's (`huf.ai.mcp_client`): switch one synced tool on or off,
and the OAuth 2.1 connection (connect, discover the authorization server, disconnect); the hourly
auto-sync run now by a System Manager (upstream's path of it answers here).

Each needs write on the MCP Server (huf.ai.mcp.access) and delegates to huf.ai.mcp (sync, oauth); all are
POST. docs/mcp.md.
"""

import frappe
from frappe import _

from huf.ai.mcp import oauth, sync
from huf.ai.mcp.access import load_server
from huf.huf.role_grants import check_system_manager


@frappe.whitelist(methods=["POST"])
def set_mcp_tool_enabled(server_name: str, tool_name: str, enabled: int | str = 1) -> dict:
	"""Enable or disable one synced tool of a server for every agent (needs write)."""
	return sync.set_tool_enabled(load_server(server_name, "write"), tool_name, enabled)


@frappe.whitelist(methods=["POST"])
def start_mcp_oauth(server_name: str) -> dict:
	"""Begin the OAuth authorization code + PKCE flow; the browser goes to `authorization_url`."""
	doc = load_server(server_name, "write")
	if doc.auth_type != "oauth":
		frappe.throw(_("MCP server {0} does not use OAuth.").format(server_name))
	return {"authorization_url": oauth.start_authorization(doc)}


@frappe.whitelist(methods=["POST"])
def discover_mcp_oauth(server_name: str) -> dict:
	"""Discover the server's authorization server and endpoints (RFC 9728, RFC 8414)."""
	doc = load_server(server_name, "write")
	meta = oauth.discover(doc)
	return {
		"authorization_endpoint": meta.get("authorization_endpoint"),
		"token_endpoint": meta.get("token_endpoint"),
		"registration_endpoint": meta.get("registration_endpoint"),
	}


@frappe.whitelist(methods=["POST"])
def disconnect_mcp_oauth(server_name: str) -> dict:
	"""Forget the server's OAuth tokens."""
	oauth.disconnect(load_server(server_name, "write"))
	return {"oauth_status": "Not Connected"}


@frappe.whitelist(methods=["POST"])
def auto_sync_mcp_server_tools() -> dict:
	"""Upstream's `huf.ai.mcp_client.auto_sync_mcp_server_tools` (hooks.py maps it here): a System Manager
	runs the hourly auto-sync now (servers with Enable Auto Sync whose interval passed): {synced, failed}."""
	check_system_manager()
	return sync.auto_sync()
