"""The built-in media tools' endpoints (the spec's module), and the tool factories of older callers.

`handle_ocr_document`, `handle_generate_image` and `handle_generate_audio` are what the built-in
`ocr_document`, `generate_image` and `generate_audio` records point at; they call the media entry
points of `huf.ai.media` (`huf.ai.tools.handlers.media.call_media`) and return data.
`handle_transcribe_audio` transcribes a File the caller may read (upstream's arguments). Tools are
built by `huf.ai.tools.registry` (`create_agent_tools`, `create_function_tool`).
"""

from typing import Any

import frappe
from frappe import _

from huf.ai.media.common import resolve_agent
from huf.ai.tools.handlers.media import call_media
from huf.ai.tools.registry import create_agent_tools, create_function_tool

__all__ = [
	"create_agent_tools",
	"create_function_tool",
	"handle_generate_audio",
	"handle_generate_image",
	"handle_ocr_document",
	"handle_transcribe_audio",
]


@frappe.whitelist(methods=["POST"])
def handle_ocr_document(**kwargs: Any) -> dict:
	"""Text of a document or image (the `ocr_document` tool)."""
	return call_media("ocr", "ocr_document", kwargs)


@frappe.whitelist(methods=["POST"])
def handle_generate_image(**kwargs: Any) -> dict:
	"""Images from a description (the `generate_image` tool)."""
	return call_media("image", "generate_image", kwargs)


@frappe.whitelist(methods=["POST"])
def handle_generate_audio(**kwargs: Any) -> dict:
	"""Speech from text (the `generate_audio` tool)."""
	return call_media("audio", "generate_audio", kwargs)


@frappe.whitelist(methods=["POST"])
def handle_transcribe_audio(
	file_id: str | None = None,
	file_url: str | None = None,
	language: str | None = None,
	model: str | None = None,
	agent_name: str | None = None,
	conversation_id: str | None = None,
) -> dict:
	"""Text of an audio File the caller may read, by the agent's (or the conversation's agent's) STT model.

	The File stays as it is (upstream made it public); a conversation must be readable by the caller.
	"""
	from huf.ai.media.speech_to_text import speech_to_text

	if frappe.session.user == "Guest":
		frappe.throw(_("Please log in to transcribe audio."), frappe.PermissionError)
	if conversation_id:
		conversation = frappe.db.get_value(
			"Agent Conversation", conversation_id, ["name", "agent"], as_dict=True
		)
		if not conversation or not frappe.has_permission("Agent Conversation", "read", doc=conversation.name):
			frappe.throw(_("Conversation not found or access denied."), frappe.PermissionError)
		agent_name = agent_name or conversation.agent
	if agent_name:
		resolve_agent(agent_name)  # refuse an agent the caller may not run before anything else
	elif not frappe.has_permission("Agent Conversation", "create"):
		frappe.throw(_("Your role may not use speech to text."), frappe.PermissionError)
	return speech_to_text(
		file_id=file_id,
		file_url=file_url,
		language=language,
		model=model,
		agent=agent_name,
		conversation=conversation_id,
	)
