"""The JSON-RPC side of MCP: message shapes, error codes, protocol revisions and results.

Results are built as the protocol's JSON and checked against the `mcp` SDK's own models
(`mcp.types`, the same names in the SDK's 1.x and 2.x) before they are sent, so what Huf answers
is what the SDK's clients parse. Huf keeps no session: every request stands alone.
"""

from __future__ import annotations

from typing import Any

SERVER_NAME = "huf"
JSONRPC = "2.0"
# the revisions negotiated by `initialize`; a client asking for another gets the newest
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_VERSION = PROTOCOL_VERSIONS[-1]

# JSON-RPC error codes (the SDK's names; -32001 is a server-defined code in JSON-RPC's range)
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNAUTHORIZED = -32001


class RpcError(Exception):
	"""A JSON-RPC error answer: `code`, `message`, and the HTTP status it is sent with."""

	def __init__(self, code: int, message: str, status: int = 200):
		super().__init__(message)
		self.code, self.message, self.status = code, message, status


def negotiated_version(requested: Any) -> str:
	"""The client's revision when Huf speaks it, else Huf's newest."""
	return requested if requested in PROTOCOL_VERSIONS else LATEST_VERSION


def checked(result_type: str, data: dict) -> dict:
	"""`data` validated as the SDK's `mcp.types.<result_type>` and dumped back as the wire JSON
	(camelCase, only the fields that were given)."""
	import mcp.types

	model = getattr(mcp.types, result_type).model_validate(data)
	return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


def response(request_id: Any, result: dict) -> dict:
	return {"jsonrpc": JSONRPC, "id": request_id, "result": result}


def error(request_id: Any, code: int, message: str) -> dict:
	return {"jsonrpc": JSONRPC, "id": request_id, "error": {"code": code, "message": message}}


def text_content(text: str) -> dict:
	return {"type": "text", "text": text}
