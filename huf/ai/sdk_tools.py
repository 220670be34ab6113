"""The built-in media tools' endpoints (the spec's module), and the tool factories of older callers.

`handle_ocr_document`, `handle_generate_image` and `handle_generate_audio` are what the built-in
`ocr_document`, `generate_image` and `generate_audio` records point at; they call the media entry
points of `huf.ai.media` (`huf.ai.tools.handlers.media.call_media`) and return data. Tools are
built by `huf.ai.tools.registry` (`create_agent_tools`, `create_function_tool`).
"""

from typing import Any

import frappe

from huf.ai.tools.handlers.media import call_media
from huf.ai.tools.registry import create_agent_tools, create_function_tool

__all__ = [
	"create_agent_tools",
	"create_function_tool",
	"handle_generate_audio",
	"handle_generate_image",
	"handle_ocr_document",
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
