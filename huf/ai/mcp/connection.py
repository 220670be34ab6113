"""Connections to one MCP server: its settings, headers and auth, and the calls made over the SDK.

`server_config(doc)` reads everything a call needs from the MCP Server in the caller's Frappe context
(secrets decrypted there); the async part never touches Frappe. Header values are secrets: they are
never logged and never part of an error message.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.mcp.errors import MCPClientError
from huf.ai.mcp.runner import run_sync

T = TypeVar("T")
DEFAULT_TIMEOUT = 30
CLIENT_NAME = "huf"


@dataclass
class ServerConfig:
	"""What one connection needs; `headers` holds secrets and is excluded from repr."""

	name: str
	url: str
	transport: str = "http"
	timeout: float = DEFAULT_TIMEOUT
	headers: dict[str, str] = field(default_factory=dict, repr=False)
	stdio: Any = None  # a `stdio.StdioSpec` for transport "stdio"


def server_config(server: Any) -> ServerConfig:
	"""The connection settings of an MCP Server (name or document), secrets included."""
	doc = server if not isinstance(server, str) else frappe.get_doc("MCP Server", server)
	timeout = max(1, cint(doc.timeout_seconds) or DEFAULT_TIMEOUT)
	if doc.transport_type == "stdio":
		from huf.ai.mcp.stdio import spec_for

		return ServerConfig(
			name=doc.name, url="", transport="stdio", timeout=timeout, stdio=spec_for(doc.stdio_server)
		)
	return ServerConfig(
		name=doc.name,
		url=(doc.server_url or "").strip(),
		transport=doc.transport_type or "http",
		timeout=timeout,
		headers=auth_headers(doc),
	)


def with_server(server: str | Any, action: Callable[[ServerConfig], T]) -> T:
	"""`action(config)` for an MCP Server; an OAuth token the server rejects is refreshed once and retried."""
	doc = server if not isinstance(server, str) else frappe.get_doc("MCP Server", server)
	try:
		return action(server_config(doc))
	except MCPClientError as exc:
		if doc.auth_type != "oauth" or exc.http_status != 401 or not doc.oauth_refresh_token:
			raise
	from huf.ai.mcp.oauth import refresh

	refresh(doc)
	return action(server_config(doc))


def auth_headers(doc: Any) -> dict[str, str]:
	"""Custom Headers rows, then the auth header (which wins over a row of the same name, in any case)."""
	headers = {
		row.header_name.strip(): row.get_password("header_value", raise_exception=False) or ""
		for row in doc.custom_headers
		if row.header_name
	}
	auth = doc.auth_type or "none"
	if auth == "oauth":
		from huf.ai.mcp.oauth import access_token

		return _with_header(headers, "Authorization", f"Bearer {access_token(doc)}")
	if auth not in ("api_key", "bearer_token", "custom_header"):
		return headers
	value = doc.get_password("auth_header_value", raise_exception=False) or ""
	if auth == "bearer_token":
		value = value if value.lower().startswith("bearer ") else f"Bearer {value}"
		return _with_header(headers, "Authorization", value)
	return _with_header(headers, (doc.auth_header_name or "X-API-Key").strip(), value)


def _with_header(headers: dict[str, str], name: str, value: str) -> dict[str, str]:
	headers = {k: v for k, v in headers.items() if k.lower() != name.lower()}
	headers[name] = value
	return headers


@dataclass
class Trace:
	"""What the HTTP layer saw during one call (the SDK reports an HTTP error without its status)."""

	status: int | None = None
	reason: str = ""

	async def on_response(self, response: Any) -> None:
		if response.status_code >= 400 and self.status is None:
			self.status, self.reason = response.status_code, response.reason_phrase or ""


@asynccontextmanager
async def open_session(config: ServerConfig, trace: Trace | None = None) -> AsyncIterator[Any]:
	"""An initialized `mcp.ClientSession` over the server's transport; yields (session, initialize result).

	A stdio server's session is its worker's pooled process (`stdio.py`), kept open after the call.
	"""
	from huf.ai.mcp import sdk

	if config.transport == "stdio":
		from huf.ai.mcp.stdio import pooled_session

		async with pooled_session(config.stdio, CLIENT_NAME) as opened:
			yield opened
		return

	http = sdk.http_library()
	trace = trace or Trace()

	def http_client(headers=None, timeout=None, auth=None) -> Any:
		return http.AsyncClient(
			headers=headers,
			timeout=timeout or http.Timeout(config.timeout),
			auth=auth,
			follow_redirects=True,
			event_hooks={"response": [trace.on_response]},
		)

	async with AsyncExitStack() as stack:
		read, write = await sdk.open_streams(
			stack, config.url, config.transport, config.headers, config.timeout, http_client
		)
		session = await stack.enter_async_context(
			sdk.client_session(read, write, config.timeout, CLIENT_NAME)
		)
		initialized = sdk.wire(await session.initialize())
		yield session, initialized


async def _list_tools(config: ServerConfig, trace: Trace) -> list[dict]:
	from huf.ai.mcp import sdk

	tools: list[dict] = []
	async with open_session(config, trace) as (session, _initialized):
		cursor = None
		for _page in range(100):  # a server that never ends its pages cannot hang a sync
			page = await sdk.list_tools_page(session, cursor)
			tools += [tool_as_dict(tool) for tool in page.get("tools") or []]
			cursor = page.get("nextCursor")
			if not cursor:
				break
	return tools


async def _call_tool(config: ServerConfig, trace: Trace, name: str, arguments: dict) -> dict:
	from huf.ai.mcp import sdk

	async with open_session(config, trace) as (session, _initialized):
		return sdk.wire(await session.call_tool(name, arguments))


async def _check(config: ServerConfig, trace: Trace) -> dict:
	from huf.ai.mcp import sdk

	async with open_session(config, trace) as (session, initialized):
		info = initialized.get("serverInfo") or {}
		tools = await sdk.list_tools_page(session, None)
		return {
			"server_name": info.get("name"),
			"server_version": info.get("version"),
			"protocol_version": initialized.get("protocolVersion"),
			"tool_count": len(tools.get("tools") or []),
		}


def list_tools(config: ServerConfig) -> list[dict]:
	"""The server's tools as `{"name", "description", "parameters"}` dicts."""
	return _run(config, _list_tools, _("list the tools of"))


def check_connection(config: ServerConfig) -> dict:
	"""Connect, initialize and count the tools; raises `MCPClientError` with the reason."""
	return _run(config, _check, _("connect to"))


def call_tool(config: ServerConfig, name: str, arguments: dict) -> str:
	"""Call one tool and return its result as text; raises `MCPClientError` when the tool reports an error."""
	result = _run(config, _call_tool, _("call {0} on").format(name), name, arguments)
	text = result_text(result)
	if result.get("isError"):
		raise MCPClientError(
			_("MCP server {0} reported an error from {1}: {2}").format(
				config.name, name, text or _("no details")
			)
		)
	return text


def _run(config: ServerConfig, function, action: str, *args: Any) -> Any:
	if not config.url and config.transport != "stdio":
		raise MCPClientError(_("MCP server {0} has no Server URL.").format(config.name))
	trace = Trace()
	try:
		return run_sync(lambda: function(config, trace, *args), config.timeout)
	except TimeoutError:
		raise MCPClientError(
			_("Could not {0} MCP server {1}: no answer within {2} seconds.").format(
				action, config.name, f"{config.timeout:g}"
			)
		) from None
	except Exception as exc:
		error = MCPClientError(
			_("Could not {0} MCP server {1}: {2}").format(action, config.name, describe_error(exc, trace))
		)
		error.http_status = (
			getattr(getattr(_root_cause(exc), "response", None), "status_code", None) or trace.status
		)
		raise error from None


def tool_as_dict(tool: dict) -> dict:
	"""A tool of `tools/list` (wire JSON) as `{"name", "description", "parameters"}`."""
	schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
	return {
		"name": tool["name"],
		"description": tool.get("description") or tool.get("title") or "",
		"parameters": clean_schema(schema),
	}


def clean_schema(schema: dict) -> dict:
	"""An object JSON schema fit for function calling (the SDK's `title` noise dropped at the top)."""
	schema = {k: v for k, v in (schema or {}).items() if k != "title"}
	schema.setdefault("type", "object")
	schema.setdefault("properties", {})
	return schema


def result_text(result: dict) -> str:
	"""A `tools/call` result (wire JSON) as the text the model sees: text blocks joined, others described."""
	parts: list[str] = []
	for block in result.get("content") or []:
		kind = block.get("type", "")
		if kind == "text":
			parts.append(block.get("text") or "")
		elif kind in ("image", "audio"):
			parts.append(f"[{kind}: {block.get('mimeType') or 'binary'}]")
		elif kind == "resource":
			resource = block.get("resource") or {}
			parts.append(resource.get("text") or f"[resource: {resource.get('uri')}]")
		elif kind == "resource_link":
			parts.append(f"[resource: {block.get('uri')}]")
	structured = result.get("structuredContent")
	if not parts and structured is not None:
		parts.append(json.dumps(structured, default=str, ensure_ascii=False))
	return "\n".join(parts)


def describe_error(exc: BaseException, trace: Trace | None = None) -> str:
	"""The root cause of a transport failure in one line (exception groups unwrapped, no headers)."""
	root = _root_cause(exc)
	response = getattr(root, "response", None)
	status = getattr(response, "status_code", None) or (trace.status if trace else None)
	if status:
		reason = (getattr(response, "reason_phrase", "") if response is not None else trace.reason) or ""
		label = f"HTTP {status} {reason}".strip()
		if status in (401, 403):
			return _("the server refused the credentials ({0}).").format(label)
		return label
	name = type(root).__name__
	if "Connect" in name:
		return _("the server could not be reached ({0}).").format(str(root) or name)
	message = getattr(root, "message", None) or str(root) or name
	return str(message)


def _root_cause(exc: BaseException) -> BaseException:
	seen = 0
	while seen < 20:
		seen += 1
		group = getattr(exc, "exceptions", None)  # an ExceptionGroup of the SDK's task groups
		if isinstance(group, (list, tuple)) and group:
			exc = next((e for e in group if not isinstance(e, _cancelled())), group[0])
			continue
		if exc.__cause__ is not None and type(exc).__name__ in ("RuntimeError",):
			exc = exc.__cause__
			continue
		break
	return exc


def _cancelled() -> tuple[type, ...]:
	import asyncio

	return (asyncio.CancelledError,)
