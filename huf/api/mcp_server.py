"""Huf's MCP server endpoint: `/api/method/huf.api.mcp_server.handle` speaks MCP's streamable HTTP
transport (huf.ai.mcp_server.handler). Guests reach it to be told 401; GET and DELETE are answered
405 and change nothing. docs/mcp-server.md.
"""

import json

import frappe
from werkzeug.wrappers import Response

from huf.ai.mcp_server import handler


@frappe.whitelist(allow_guest=True, methods=["GET", "POST", "DELETE"])
def handle() -> Response:
	"""Answer one MCP request (JSON-RPC over HTTP) as the signed-in user."""
	request = frappe.local.request
	answer = handler.handle(
		request.method,
		request.get_data(as_text=True) if request.method == "POST" else "",
		request.headers.get(handler.VERSION_HEADER),
	)
	body = json.dumps(answer.body) if answer.body is not None else ""
	return Response(
		body,
		status=answer.status,
		mimetype="application/json" if answer.body is not None else None,
		headers=answer.headers,
	)
