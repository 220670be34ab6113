"""The tool registry: which tools an agent gets (app-provided tools are synced by `app_sync`).

- `agent_tool_provider(agent, context)` (declared in Huf's `huf_tool_providers` hook) turns the
  agent's Agent Tool rows into executable tools (`huf.ai.tools.executor.FunctionTool`), plus the
  conversation-data tools when the agent keeps conversation data. MCP tools come from the MCP
  provider, knowledge tools from the knowledge provider: the loop merges all providers.
"""

from typing import Any

import frappe
from frappe.utils import cint

from huf.ai.runtime.tools import Tool, ToolContext
from huf.ai.tools.executor import FunctionTool, ToolSpec
from huf.huf.app_tools import find_registered_tool

CONVERSATION_DATA_TOOLS = ("get_conversation_data", "set_conversation_data", "load_conversation_data")


# --- tools of an agent ---------------------------------------------------------------------------


def agent_tool_provider(agent: Any, context: ToolContext) -> list[Tool]:
	"""The tools of `agent`'s Agent Tool rows (+ conversation-data tools), each name once."""
	rows = agent.get("agent_tool") or []
	records = [row.get("tool") for row in rows]
	overrides = {row.get("tool"): row.get("requires_approval") for row in rows}
	if cint(agent.get("enable_conversation_data")):
		records.extend(CONVERSATION_DATA_TOOLS)
	tools: list[Tool] = []
	names: set[str] = set()
	for record in dict.fromkeys(records):
		tool = load_tool(record)
		if tool is not None and tool.name not in names:
			names.add(tool.name)
			tool.requires_approval = requires_approval(tool.requires_approval, overrides.get(record))
			tools.append(tool)
	return tools


def requires_approval(tool_setting: bool, row_setting: str | None) -> bool:
	"""An agent's tool row overrides the tool's Requires Approval: Always / Never, else Inherit."""
	if row_setting == "Always":
		return True
	if row_setting == "Never":
		return False
	return bool(tool_setting)


def load_tool(name: str | None) -> FunctionTool | None:
	"""The executable tool of one Agent Tool Function; None (logged) when it cannot be used."""
	if not name or not frappe.db.exists("Agent Tool Function", name):
		if name:
			frappe.logger("huf").warning(f"Agent Tool Function {name} not found; tool skipped")
		return None
	doc = frappe.get_doc("Agent Tool Function", name)
	if doc.types == "App Provided":
		if not find_registered_tool(doc.function_path or ""):
			frappe.logger("huf").warning(
				f"tool {name}: {doc.function_path} is not declared by any app; skipped"
			)
			return None
	try:
		return FunctionTool(ToolSpec.from_doc(doc))
	except Exception:
		frappe.logger("huf").warning(f"tool {name} could not be loaded", exc_info=True)
		return None


def get_agent_tools(agent: Any, user: str | None = None) -> list[Tool]:
	"""Every tool `agent` has in a run (all providers: Agent Tools, MCP, knowledge...)."""
	from huf.ai.runtime.tools import load_toolset

	if isinstance(agent, str):
		agent = frappe.get_cached_doc("Agent", agent)
	context = ToolContext(agent=agent.name, user=user or frappe.session.user)
	return list(load_toolset(agent, context).tools.values())


def create_agent_tools(agent: Any) -> list[Tool]:
	"""The tools `agent` (a name or an Agent document) has in a run, as the current user."""
	return get_agent_tools(agent)


def create_function_tool(tool: str | Any) -> FunctionTool:
	"""The executable tool of one Agent Tool Function (a name or a document)."""
	doc = frappe.get_doc("Agent Tool Function", tool) if isinstance(tool, str) else tool
	return FunctionTool(ToolSpec.from_doc(doc))
