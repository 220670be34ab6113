"""Huf's media endpoint beside the spec's (`huf.ai.sdk_tools.handle_ocr_document`): OCR of a File the
caller may read, for signed-in users who may chat (or run the agent named). huf.ai.media.ocr does the
work; docs/tools.md.
"""

import frappe
from frappe import _

from huf.ai.media import common
from huf.ai.media.ocr import ocr_document


@frappe.whitelist(methods=["POST"])
def ocr_file(
	file_id: str | None = None,
	file_url: str | None = None,
	pages: str | None = None,
	include_images: bool = False,
	model: str | None = None,
	agent: str | None = None,
) -> dict:
	"""REST: OCR a File the caller may read (an agent the caller may run picks the OCR/vision model)."""
	if agent:
		common.resolve_agent(agent)  # refuse an agent the caller may not run before anything else
	elif not frappe.has_permission("Agent Conversation", "create"):
		frappe.throw(_("Your role may not use OCR."), frappe.PermissionError)
	return ocr_document(
		file_id=file_id,
		file_url=file_url,
		pages=pages,
		include_images=frappe.utils.sbool(include_images),
		model=model,
		agent=agent,
	)
