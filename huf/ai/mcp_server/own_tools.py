"""An agent's own tools over MCP: where the agent's Offer Tools over MCP (`mcp_expose_tools`) is ticked,
each tool it gets in a run is a tool of Huf's MCP server too, for the callers who may run the agent
and hold `tools.use`.

- **Name**: `<agent>__<tool>`: the agent's name as in `ask_<agent>` (`agent_tools.slug`), two
  underscores, the tool's name (characters other than a-z, A-Z, 0-9, `_` and `-` as `_`); longer than
  64 characters, or a name another tool already has: cut, ending with `_` and a hash of both names.
- **Input**: the tool's own JSON schema (what the model sees in a run).
- **A call** is a tool run (`huf.ai.runtime.tool_runs`) through the front door as the caller: a new
  conversation (channel `mcp`), an Agent Run of kind `tool` and its Agent Tool Call, the approval
  gate, the tool executed as the caller; its result is the answer. A tool that requires approval parks
  the run, and the result says so (run and approval ids); the approved call runs later and its result
  becomes the run's answer.
Client-side tools (answered by a chat's browser) are not offered.
"""

from __future__ import annotations

import re
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, strip_html

from huf.ai.mcp_server import agent_tools
from huf.ai.runtime import tool_runs
from huf.ai.runtime.tools import Tool
from huf.huf import run_access
from huf.huf.capabilities import has_capability

SEPARATOR = "__"
UNSAFE = re.compile(r"[^a-zA-Z0-9_-]+")


def offered(agents: list[Any], taken: set[str]) -> dict[str, tuple[Any, Tool]]:
	"""{tool name: (agent row, tool)} of the own tools of `agents` (rows of agents the caller may run)
	that offer them; names in `taken` are not used again. Nothing without `tools.use`."""
	if not has_capability(frappe.session.user, tool_runs.CAPABILITY):
		return {}
	tools: dict[str, tuple[Any, Tool]] = {}
	for row in agents:
		if not cint(row.get("mcp_expose_tools")):
			continue
		for tool in tool_runs.callable_tools(run_access.load_agent(row.name)):
			name = tool_name(row.name, tool.name)
			if name in taken or name in tools:
				name = tool_name(row.name, tool.name, hashed=True)
			tools[name] = (row, tool)
	return tools


def tool_name(agent: str, tool: str, hashed: bool = False) -> str:
	"""`<agent>__<tool>` (see the module docstring)."""
	name = (agent_tools.slug(agent) or "agent") + SEPARATOR + (UNSAFE.sub("_", tool).strip("_") or "tool")
	return agent_tools.fitted(name, f"{agent}\0{tool}", hashed)


def describe(name: str, row: Any, tool: Tool) -> dict:
	"""The tool `name` (the agent `row`'s `tool`) as `tools/list` lists it."""
	about = strip_html(tool.description or "").strip()
	note = _(
		"Tool {0} of the Huf agent {1}; each call runs it as you and is recorded as a run of the agent."
	).format(tool.name, row.name)
	if tool.requires_approval:
		note += " " + _("A call waits for an approver's decision before the tool runs.")
	schema = dict(tool.parameters) if isinstance(tool.parameters, dict) else {}
	schema["type"] = "object"
	return {
		"name": name,
		"title": f"{row.name}: {tool.name}",
		"description": f"{about} ({note})" if about else note,
		"inputSchema": schema,
	}


def call(row: Any, tool: Tool, arguments: dict) -> dict:
	"""The `tools/call` result of calling `tool` of the agent `row` with `arguments`: a tool run."""
	request = tool_runs.request(
		row.name, tool.name, arguments, new_conversation=True, channel=agent_tools.CHANNEL, now=True
	)
	return agent_tools.start(request, row.name, tool=tool.name)
