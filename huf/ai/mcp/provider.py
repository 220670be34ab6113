"""The agents' MCP tools: one `Tool` per enabled tool of each enabled server linked to the agent.

The model sees `<namespace>.<tool>` mapped to `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule, the strictest)
and a description prefixed `[MCP:<namespace>]`; the call is made with the server's own tool name.
Tools come from the last sync (the MCP Server Tool rows), so loading an agent never contacts a server.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import frappe
from frappe.utils import cint

from huf.ai.mcp.connection import call_tool, with_server
from huf.ai.runtime.tools import Tool, ToolContext

LLM_NAME_MAX = 64
INVALID_NAME_CHARS = re.compile(r"[^a-zA-Z0-9_-]+")


def qualified_name(server: Any, tool_name: str) -> str:
	"""`gmail.send_email` with a Tool Namespace, else the tool's own name."""
	return f"{server.tool_namespace}.{tool_name}" if server.tool_namespace else tool_name


def llm_name(name: str, taken: set[str] | None = None) -> str:
	"""A name every provider accepts for `name`, unique within `taken`."""
	safe = INVALID_NAME_CHARS.sub("_", name).strip("_") or "tool"
	if len(safe) <= LLM_NAME_MAX and safe not in (taken or ()):
		return safe
	digest = hashlib.sha1(name.encode()).hexdigest()[:8]
	return f"{safe[: LLM_NAME_MAX - 9]}_{digest}"


def mcp_tool_provider(agent: Any, context: ToolContext) -> list[Tool]:
	"""`huf_tool_providers` entry: the MCP tools of `agent`."""
	return create_mcp_tools(agent)


def create_mcp_tools(agent: Any) -> list[Tool]:
	"""The `Tool`s of the enabled Agent MCP Server rows of `agent` (an Agent document or name)."""
	if isinstance(agent, str):
		agent = frappe.get_doc("Agent", agent)
	tools: list[Tool] = []
	taken: set[str] = set()
	for row in agent.get("agent_mcp_server") or []:
		if not cint(row.enabled) or not row.mcp_server:
			continue
		server = frappe.db.get_value(
			"MCP Server", row.mcp_server, ["name", "enabled", "tool_namespace", "server_name"], as_dict=True
		)
		if not server or not cint(server.enabled):
			continue
		for tool in frappe.get_all(
			"MCP Server Tool",
			filters={"parent": server.name, "parenttype": "MCP Server", "enabled": 1},
			fields=["tool_name", "description", "parameters"],
			order_by="idx asc",
		):
			name = llm_name(qualified_name(server, tool.tool_name), taken)
			taken.add(name)
			tools.append(make_tool(server, tool, name))
	return tools


def make_tool(server: Any, tool: Any, name: str) -> Tool:
	label = server.tool_namespace or server.name
	description = f"[MCP:{label}] {tool.description or tool.tool_name}".strip()
	server_name, tool_name = server.name, tool.tool_name

	def handler(args: dict, context: ToolContext) -> str:
		return execute_mcp_tool(server_name, tool_name, args)

	return Tool(
		name=name,
		description=description,
		parameters=_parameters(tool.parameters),
		handler=handler,
		is_mcp_tool=True,
		mcp_server=server.name,
	)


def execute_mcp_tool(server_name: str, tool_name: str, arguments: dict | None) -> str:
	"""Call `tool_name` on the MCP Server `server_name` and return its text result."""
	doc = frappe.get_doc("MCP Server", server_name)
	if not cint(doc.enabled):
		frappe.throw(frappe._("MCP server {0} is disabled.").format(server_name))
	return with_server(doc, lambda config: call_tool(config, tool_name, arguments or {}))


def _parameters(raw: str | dict | None) -> dict:
	try:
		schema = json.loads(raw) if isinstance(raw, str) and raw else raw
	except ValueError:
		schema = None
	if not isinstance(schema, dict):
		schema = {}
	schema.setdefault("type", "object")
	schema.setdefault("properties", {})
	return schema
