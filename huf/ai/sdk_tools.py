"""The built-in media tools' endpoints (the spec's module), and the tool factories of older callers.

`handle_ocr_document`, `handle_generate_image` and `handle_generate_audio` are what the built-in
`ocr_document`, `generate_image` and `generate_audio` records point at; `handle_transcribe_audio`
transcribes a File the caller may read. Each takes upstream's arguments, `agent_name` and
`conversation_id` included, and calls the media entry points of `huf.ai.media` through
`huf.ai.tools.handlers.media.call_media`, which checks them as the caller: the agent (given, else the
running one, else the conversation's) picks the provider and model and must be one the caller may run;
the conversation (given, else the running one) must be readable, and generated images and audio are
private Files attached to it (the caller must own it or may write it). Tools are built by
`huf.ai.tools.registry` (`create_agent_tools`, `create_function_tool`). The spec's helper
`_resolve_tts_config` is the media package's `resolve_tts_config` (the three tiers: the call's model,
the agent's TTS model, the provider's default).
"""

import frappe

from huf.ai.media.audio import resolve_tts_config as _resolve_tts_config
from huf.ai.tools.handlers.media import call_media
from huf.ai.tools.registry import create_agent_tools, create_function_tool

__all__ = [
	"_resolve_tts_config",
	"create_agent_tools",
	"create_function_tool",
	"handle_generate_audio",
	"handle_generate_image",
	"handle_ocr_document",
	"handle_transcribe_audio",
]


@frappe.whitelist(methods=["POST"])
def handle_ocr_document(
	file_id: str | None = None,
	file_url: str | None = None,
	pages: str | list | None = None,
	include_images: bool = False,
	model: str | None = None,
	agent_name: str | None = None,
	conversation_id: str | None = None,
	strategy: str | None = None,
) -> dict:
	"""Text of a document or image the caller may read (the `ocr_document` tool)."""
	arguments = {
		"file_id": file_id,
		"file_url": file_url,
		"pages": pages,
		"include_images": frappe.utils.sbool(include_images),
		"model": model,
		"strategy": strategy,
	}
	return call_media("ocr", "ocr_document", arguments, agent_name, conversation_id)


@frappe.whitelist(methods=["POST"])
def handle_generate_image(
	prompt: str | None = None,
	size: str | None = "1024x1024",
	quality: str | None = "standard",
	n: int | None = 1,
	agent_name: str | None = None,
	conversation_id: str | None = None,
	model: str | None = None,
) -> dict:
	"""Images from a description (the `generate_image` tool), saved to the conversation."""
	arguments = {"prompt": prompt, "size": size, "quality": quality, "n": n, "model": model}
	return call_media("image", "generate_image", arguments, agent_name, conversation_id)


@frappe.whitelist(methods=["POST"])
def handle_generate_audio(
	input: str | None = None,  # noqa: A002 - upstream's (and the tool's) parameter name
	voice: str | None = None,
	model: str | None = None,
	speed: float | None = None,
	response_format: str | None = "mp3",
	agent_name: str | None = None,
	conversation_id: str | None = None,
) -> dict:
	"""Speech from text (the `generate_audio` tool), saved to the conversation."""
	arguments = {
		"input": input,
		"voice": voice,
		"model": model,
		"speed": speed,
		"response_format": response_format,
	}
	return call_media("audio", "generate_audio", arguments, agent_name, conversation_id)


@frappe.whitelist(methods=["POST"])
def handle_transcribe_audio(
	file_id: str | None = None,
	file_url: str | None = None,
	language: str | None = None,
	model: str | None = None,
	agent_name: str | None = None,
	conversation_id: str | None = None,
) -> dict:
	"""Text of an audio File the caller may read, by the agent's (or the conversation's agent's) STT
	model. The File stays as it is (upstream made it public)."""
	if frappe.session.user == "Guest":
		frappe.throw(frappe._("Please log in to transcribe audio."), frappe.PermissionError)
	arguments = {"file_id": file_id, "file_url": file_url, "language": language, "model": model}
	return call_media("speech_to_text", "speech_to_text", arguments, agent_name, conversation_id)
