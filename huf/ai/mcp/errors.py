"""The one error of the MCP client: a readable failure talking to an MCP server."""

import frappe


class MCPClientError(frappe.ValidationError):
	"""A readable failure talking to an MCP server (connection, auth, protocol or timeout)."""

	http_status: int | None = None
