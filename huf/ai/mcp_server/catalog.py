"""`tools/list` and `tools/call`: the tools Huf's MCP server offers the caller.

First one `ask_<agent>` tool per agent the caller may run (`agent_tools`), then the own tools of
those agents whose owners offer them (`own_tools`). A tool the caller is not offered (an agent they
may not run, a tool of an agent that does not offer its tools) is answered like a tool that does not
exist, so a refused caller does not learn what exists.
"""

from __future__ import annotations

from typing import Any

from frappe import _

from huf.ai.mcp_server import agent_tools, own_tools
from huf.ai.mcp_server.protocol import INVALID_PARAMS, RpcError, checked


def offered() -> dict[str, tuple[Any, Any]]:
	"""{tool name: (agent row, None for `ask_<agent>` | the agent's own Tool)}, as listed."""
	agents = agent_tools.runnable_agents()
	tools: dict[str, tuple[Any, Any]] = {name: (row, None) for name, row in agents.items()}
	tools.update(own_tools.offered(list(agents.values()), taken=set(tools)))
	return tools


def list_tools() -> dict:
	"""The `tools/list` result (all in one page)."""
	tools = [
		agent_tools.describe(name, row) if tool is None else own_tools.describe(name, row, tool)
		for name, (row, tool) in offered().items()
	]
	return checked("ListToolsResult", {"tools": tools})


def call_tool(params: dict) -> dict:
	"""The `tools/call` result; a tool not offered to the caller or arguments that are not an object
	are a JSON-RPC error."""
	name = params.get("name")
	arguments = params.get("arguments") or {}
	found = offered().get(name) if isinstance(name, str) else None
	if found is None:
		raise RpcError(INVALID_PARAMS, _("Unknown tool: {0}").format(str(name)[:100]))
	if not isinstance(arguments, dict):
		raise RpcError(INVALID_PARAMS, _("The arguments of {0} must be an object.").format(name))
	row, tool = found
	if tool is None:
		return agent_tools.call(row, name, arguments)
	return own_tools.call(row, tool, arguments)
