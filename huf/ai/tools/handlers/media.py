"""Media tools: Speech to Text, and the entry points of `huf.ai.media` the built-in media tools call."""

import importlib
from collections.abc import Callable
from typing import Any

import frappe
from frappe import _

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.spec import ToolSpec


def media_entry(module: str, function: str) -> Callable:
	"""An entry point of `huf.ai.media` (imported on first use: the media stack is heavy)."""
	try:
		target = importlib.import_module(f"huf.ai.media.{module}")
	except ImportError:
		frappe.throw(_("{0} is not available on this site.").format(function.replace("_", " ")))
	entry = getattr(target, function, None)
	if not callable(entry):
		frappe.throw(_("{0} is not available on this site.").format(function.replace("_", " ")))
	return entry


def speech_to_text(spec: ToolSpec, args: dict, context: ToolContext) -> Any:
	entry = media_entry("speech_to_text", "speech_to_text")
	return frappe.call(entry, **args, conversation=context.conversation, agent=context.agent)


def call_media(
	module: str,
	function: str,
	arguments: dict,
	agent: str | None = None,
	conversation: str | None = None,
) -> Any:
	"""Call `huf.ai.media.<module>.<function>` with `arguments`, for `agent` and `conversation`
	(upstream's `agent_name` and `conversation_id`), checked as the caller.

	The agent is the one given (the caller must be allowed to run it), else the running one (a tool call
	of a run), else the conversation's; outside a run and without an agent the caller must be allowed to
	chat (only users who may run agents spend the provider's credits). The conversation is the one given,
	else the running one; another than the running one must exist and be readable by the caller (the
	media function checks that the caller may add files to it before saving its output there)."""
	from huf.ai.media.common import resolve_agent

	context = frappe.flags.get("huf_tool_context")
	if agent:
		resolve_agent(agent)  # refuse an agent the caller may not run before anything else
	elif context is None and not frappe.has_permission("Agent Conversation", "create"):
		frappe.throw(
			_("Your role may not use {0}.").format(function.replace("_", " ")), frappe.PermissionError
		)
	entry = media_entry(module, function)
	running = frappe.flags.get("huf_conversation")
	conversation = conversation or running
	if conversation and conversation != running:
		if not frappe.db.exists("Agent Conversation", conversation) or not frappe.has_permission(
			"Agent Conversation", "read", doc=conversation
		):
			frappe.throw(_("Conversation not found or access denied."), frappe.PermissionError)
	if not agent and context is not None:
		agent = getattr(context, "agent", None) or None
	if not agent and conversation:
		agent = frappe.db.get_value("Agent Conversation", conversation, "agent")
	arguments = {key: value for key, value in arguments.items() if value is not None}
	return frappe.call(entry, **arguments, conversation=conversation, agent=agent)
