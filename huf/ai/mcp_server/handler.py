"""One HTTP request of MCP's streamable HTTP transport, answered as `Answer(status, body, headers)`.

- POST carries one JSON-RPC message. A request gets its response as JSON (200, also for a
  JSON-RPC error); a notification or a response from the client gets 202 with no body. A batch (a
  JSON array, dropped from the protocol in 2025-06-18) is refused.
- GET and DELETE get 405: Huf opens no server-to-client stream and keeps no session, so it never
  sends `Mcp-Session-Id` and the clients have nothing to end.
- A guest gets 401 with a JSON-RPC error, whatever it asks (also `initialize`).

Methods: initialize, ping, tools/list, tools/call (catalog), prompts/list, prompts/get
(prompt_library); notifications (notifications/initialized, notifications/cancelled...) are accepted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _

from huf.ai.mcp_server import catalog, prompt_library
from huf.ai.mcp_server.protocol import (
	INTERNAL_ERROR,
	INVALID_PARAMS,
	INVALID_REQUEST,
	METHOD_NOT_FOUND,
	PARSE_ERROR,
	PROTOCOL_VERSIONS,
	SERVER_NAME,
	UNAUTHORIZED,
	RpcError,
	checked,
	error,
	negotiated_version,
	response,
)

GUEST = "Guest"
VERSION_HEADER = "MCP-Protocol-Version"


@dataclass
class Answer:
	"""What the endpoint sends: an HTTP status, a JSON body (None: no body) and extra headers."""

	status: int
	body: Any = None
	headers: dict[str, str] = field(default_factory=dict)


def handle(http_method: str, raw_body: str, protocol_version: str | None = None) -> Answer:
	"""Answer one request of the transport (see the module docstring) as the session user."""
	if http_method != "POST":
		return Answer(405, error(None, INVALID_REQUEST, _("Use POST.")), {"Allow": "POST"})
	try:
		message = json.loads(raw_body or "")
	except ValueError:
		return Answer(400, error(None, PARSE_ERROR, _("The body must be one JSON-RPC message.")))
	request_id = message.get("id") if isinstance(message, dict) else None
	if frappe.session.user == GUEST:
		return Answer(
			401,
			error(request_id, UNAUTHORIZED, _("Sign in: send Authorization: token <api key>:<api secret>.")),
			{"WWW-Authenticate": 'Token realm="Huf MCP"'},
		)
	if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
		return Answer(400, error(request_id, INVALID_REQUEST, _("Expected one JSON-RPC 2.0 message.")))
	if protocol_version and protocol_version not in PROTOCOL_VERSIONS:
		return Answer(
			400,
			error(
				request_id,
				INVALID_REQUEST,
				_("Unsupported protocol version {0}.").format(protocol_version[:40]),
			),
		)
	if "method" not in message and not ("result" in message or "error" in message):
		return Answer(400, error(request_id, INVALID_REQUEST, _("Expected one JSON-RPC 2.0 message.")))
	if "method" not in message or "id" not in message:
		return Answer(202)  # a notification, or the client's answer to a request Huf never sends
	params = message.get("params") or {}
	if not isinstance(params, dict):
		return Answer(200, error(request_id, INVALID_PARAMS, _("params must be an object.")))
	try:
		return Answer(200, response(request_id, dispatch(str(message["method"]), params)))
	except RpcError as e:
		return Answer(e.status, error(request_id, e.code, e.message))
	except Exception:
		frappe.db.rollback()
		frappe.log_error(title=_("MCP request {0} failed").format(str(message["method"])[:60]))
		return Answer(200, error(request_id, INTERNAL_ERROR, _("Huf could not answer this request.")))


def dispatch(method: str, params: dict) -> dict:
	"""The result of the JSON-RPC `method`."""
	if method == "initialize":
		return initialize(params)
	if method == "ping":
		return checked("EmptyResult", {})
	if method == "tools/list":
		return catalog.list_tools()
	if method == "tools/call":
		return catalog.call_tool(params)
	if method == "prompts/list":
		return prompt_library.list_prompts()
	if method == "prompts/get":
		return prompt_library.get_prompt(params)
	raise RpcError(METHOD_NOT_FOUND, _("Method not found: {0}").format(method[:100]))


def initialize(params: dict) -> dict:
	"""The `initialize` result: the negotiated revision, Huf's capabilities and how to use its tools."""
	from huf import __version__

	return checked(
		"InitializeResult",
		{
			"protocolVersion": negotiated_version(params.get("protocolVersion")),
			"capabilities": {"tools": {"listChanged": False}, "prompts": {"listChanged": False}},
			"serverInfo": {"name": SERVER_NAME, "title": "Huf", "version": str(__version__)},
			"instructions": _(
				"Each ask_<agent> tool asks one Huf agent of this site, as you. An answer ends with the "
				"conversation_id to pass to continue that conversation. A tool named <agent>__<tool> "
				"calls that tool of the agent directly, as you."
			),
		},
	)
