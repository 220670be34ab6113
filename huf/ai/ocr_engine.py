"""OCR and document text extraction (the spec's module `ocr_engine`): `extract_document`.

The engine is `huf.ai.media.ocr.ocr_document` (docs/tools.md): local extraction for text and office
files, the provider's OCR endpoint or a vision model for PDFs and images; the caller must be allowed to
read the File and to run the agent. `extract_document` keeps upstream's arguments and is awaitable as
upstream's was; its result is `ocr_document`'s (`success`, `text`, `pages`, `strategy`, `model`,
`file_id`, `file_name`, `file_hash`, or `error`), readable by key or attribute. Upstream's
`create_message` and `agent_run_id` (it also posted the text as an Agent Message) are not used: the text
reaches a conversation as the result of the tool call that asked for it.
"""

from typing import Any

import frappe

from huf.ai.media.ocr import ocr_document

__all__ = ["extract_document"]


async def extract_document(
	agent_doc: Any,
	file_id: str | None = None,
	file_url: str | None = None,
	pages: str | None = None,
	include_images: bool = False,
	model: str | None = None,
	create_message: bool = True,
	conversation_id: str | None = None,
	agent_run_id: str | None = None,
) -> frappe._dict:
	"""The text of a File the caller may read, extracted for the agent `agent_doc` (a name or an Agent)."""
	agent = agent_doc if agent_doc is None or isinstance(agent_doc, str) else agent_doc.name
	result = ocr_document(
		file_id=file_id,
		file_url=file_url,
		pages=pages,
		include_images=include_images,
		model=model,
		conversation=conversation_id,
		agent=agent,
	)
	return frappe._dict(result)
