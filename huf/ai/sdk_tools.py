"""Bridge between Agent Tool Functions and the runtime's tools, and the handlers of Huf's media tools.

`create_agent_tools(agent)` lists every tool an agent gets in a run (its Agent Tools, MCP servers
and knowledge, from all tool providers). The `handle_*` functions are what the built-in
`ocr_document`, `generate_image` and `generate_audio` records point at; they call the media
entry points of `huf.ai.media` (imported on first use) and return data, never a coroutine.
"""

from typing import Any

import frappe
from frappe import _
from frappe.utils.typing_validations import transform_parameter_types

from huf.ai.runtime.tools import Tool
from huf.ai.tool_executor import FunctionTool, ToolSpec, strip_forbidden


def create_agent_tools(agent: Any) -> list[Tool]:
	"""The tools `agent` (a name or an Agent document) has in a run, as the current user."""
	from huf.ai.tool_registry import get_agent_tools

	return get_agent_tools(agent)


def create_function_tool(tool: str | Any) -> FunctionTool:
	"""The executable tool of one Agent Tool Function (a name or a document)."""
	doc = frappe.get_doc("Agent Tool Function", tool) if isinstance(tool, str) else tool
	return FunctionTool(ToolSpec.from_doc(doc))


@frappe.whitelist(methods=["POST"])
def handle_ocr_document(**kwargs: Any) -> dict:
	"""Text of a document or image (the `ocr_document` tool)."""
	return _media("ocr", "ocr_document", kwargs)


@frappe.whitelist(methods=["POST"])
def handle_generate_image(**kwargs: Any) -> dict:
	"""Images from a description (the `generate_image` tool)."""
	return _media("image", "generate_image", kwargs)


@frappe.whitelist(methods=["POST"])
def handle_generate_audio(**kwargs: Any) -> dict:
	"""Speech from text (the `generate_audio` tool)."""
	return _media("audio", "generate_audio", kwargs)


def _media(module: str, function: str, kwargs: dict) -> Any:
	"""Call `huf.ai.media.<module>.<function>` for the running (or a readable) conversation."""
	from huf.ai.tool_functions import media_entry

	context = frappe.flags.get("huf_tool_context")
	if context is None and not frappe.has_permission("Agent Conversation", "create"):
		# called over HTTP, outside a run: only users who may run agents spend the provider's credits
		frappe.throw(
			_("Your role may not use {0}.").format(function.replace("_", " ")), frappe.PermissionError
		)
	entry = media_entry(module, function)
	kwargs = {k: v for k, v in strip_forbidden(kwargs).items() if k != "cmd"}
	# the handlers take **kwargs: check them against the media function's annotations, as Frappe does
	kwargs = transform_parameter_types(entry, (), kwargs)[1]
	running = frappe.flags.get("huf_conversation")
	conversation = kwargs.get("conversation") or running
	if conversation and conversation != running:
		if not frappe.has_permission("Agent Conversation", "read", doc=conversation):
			frappe.throw(_("Conversation not found or access denied."), frappe.PermissionError)
	kwargs["conversation"] = conversation
	if context is not None and getattr(context, "agent", None):
		kwargs["agent"] = context.agent
	else:
		kwargs.pop("agent", None)
		if conversation:
			kwargs["agent"] = frappe.db.get_value("Agent Conversation", conversation, "agent")
	return frappe.call(entry, **kwargs)
