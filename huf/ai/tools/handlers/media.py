"""Media tools: Speech to Text, and the entry points of `huf.ai.media` the built-in media tools call."""

import importlib
from collections.abc import Callable
from typing import Any

import frappe
from frappe import _
from frappe.utils.typing_validations import transform_parameter_types

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.arguments import strip_forbidden
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


def call_media(module: str, function: str, kwargs: dict) -> Any:
	"""Call `huf.ai.media.<module>.<function>` for the running (or a readable) conversation."""
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
