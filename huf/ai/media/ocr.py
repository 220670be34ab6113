"""`ocr_document`: the text of a File, by the cheapest strategy that works.

Order (as in the spec): LiteLLM OCR for PDFs when the provider has an OCR endpoint (Mistral, Azure
AI, Vertex AI), local pypdf for other PDFs or when OCR fails, local extractors for DOCX/XLSX/PPTX/
HTML/text files, a vision model (through the provider seam) for images.
"""

import base64
import logging
from typing import Any

import frappe
from frappe import _

from huf.ai.media import common
from huf.ai.media.extractors import Page, extension_of, extract_text, is_supported, join_pages, parse_pages

logger = logging.getLogger("huf.ai.media")

DEFAULT_OCR_MODELS = {
	"mistral": "mistral-ocr-latest",
	"azure_ai": "mistral-document-ai-2505",
	"vertex_ai": "mistral-ocr-2505",
}
VISION_PROMPT = (
	"Extract all text visible in this image. Keep the reading order, render tables as markdown "
	"tables, and describe charts or pictures without text in one short sentence. Output markdown only."
)


def ocr_document(
	file_id: str | None = None,
	file_url: str | None = None,
	pages: str | list | None = None,
	include_images: bool = False,
	model: str | None = None,
	strategy: str | None = None,
	*,
	conversation: str | None = None,
	agent: str | None = None,
	**_ignored: Any,
) -> dict:
	"""Extract the text of a File (PDF, image, office, HTML or text) for the model to read."""
	try:
		file_doc = common.find_file(file_id, file_url)
	except frappe.DoesNotExistError as exc:
		return common.failure(str(exc))
	common.check_file_access(file_doc)
	try:
		content = common.read_file(file_doc)
		selected = parse_pages(pages)
	except frappe.PermissionError:
		raise
	except frappe.ValidationError as exc:
		return common.failure(str(exc))
	meta = {
		"file_id": file_doc.name,
		"file_name": file_doc.file_name,
		"file_hash": common.sha256(content),
	}
	ext = extension_of(file_doc.file_name or file_doc.file_url)
	try:
		if ext in common.IMAGE_EXTENSIONS:
			return {**meta, **_vision(content, ext, model, conversation, agent)}
		if ext == "pdf" and strategy not in ("local", "local_pdf"):
			target = _ocr_target(model, conversation, agent)
			if target is not None:
				try:
					return {**meta, **_litellm_ocr(content, selected, include_images, target)}
				except frappe.ValidationError as exc:
					logger.info("OCR endpoint failed, reading the PDF locally: %s", exc)
					meta["ocr_error"] = str(exc)
		if not is_supported(file_doc.file_name):
			return common.failure(
				_(
					"Cannot read {0} files. Supported: PDF, images, DOCX, XLSX, PPTX, HTML, TXT, MD, CSV, JSON, XML, LOG."
				).format(ext.upper() or _("extension-less")),
				**meta,
			)
		extracted = extract_text(content, file_doc.file_name, pages=selected)
	except frappe.PermissionError:
		raise
	except frappe.ValidationError as exc:
		return common.failure(str(exc), **meta)
	result = _result(extracted, "local_pdf" if ext == "pdf" else "local", None)
	if ext == "pdf" and not result["text"].strip():
		result["note"] = _(
			"The PDF has no text layer (scanned pages). Use an agent whose provider has an OCR endpoint, e.g. Mistral."
		)
	return {**meta, **result}


def _result(pages: list[Page], strategy: str, model: str | None) -> dict:
	return {
		"success": True,
		"text": join_pages(pages),
		"pages": [page.as_dict() for page in pages],
		"strategy": strategy,
		"model": model,
	}


def _ocr_target(model: str | None, conversation: str | None, agent: str | None) -> common.Target | None:
	"""The provider and OCR model to use, or None when the provider has no OCR endpoint."""
	from huf.ai.providers.calls import supports_ocr

	main = common.main_target(common.resolve_agent(agent, conversation))
	if not main.provider:
		return None
	if model:
		target = common.model_target(model, main)
		return target if supports_ocr(target.provider, target.model) else None
	prefix = common.prefix_of(main.provider)
	if prefix not in DEFAULT_OCR_MODELS or not supports_ocr(main.provider):
		return None
	return common.Target(main.provider, DEFAULT_OCR_MODELS[prefix])


def _litellm_ocr(
	content: bytes, selected: list[int] | None, include_images: bool, target: common.Target
) -> dict:
	from huf.ai.providers.calls import ocr

	document = {
		"type": "document_url",
		"document_url": "data:application/pdf;base64," + base64.b64encode(content).decode(),
	}
	extra: dict[str, Any] = {}
	if selected is not None:
		extra["pages"] = selected
	if include_images:
		extra["include_image_base64"] = True
	answer = ocr(target.provider, target.model, document, **extra)
	pages = [p for p in answer.pages if selected is None or p["index"] in selected]
	result = {
		"success": True,
		"text": "\n\n".join(p["markdown"].strip() for p in pages if p["markdown"].strip()),
		"pages": [
			{"index": p["index"], "label": f"Page {p['index'] + 1}", "text": p["markdown"]}
			| ({"images": p["images"]} if include_images else {})
			for p in pages
		],
		"strategy": "ocr",
		"model": answer.model,
	}
	return result


def _vision(content: bytes, ext: str, model: str | None, conversation: str | None, agent: str | None) -> dict:
	from huf.ai.providers.calls import completion

	main = common.main_target(common.resolve_agent(agent, conversation))
	target = common.model_target(model, main) if model else main
	if not target.provider or not target.model:
		return common.failure(
			_("Reading text from images needs a vision model: run this from an agent (or pass a model).")
		)
	mime = common.IMAGE_MIME.get(ext, f"image/{ext}")
	data_url = f"data:{mime};base64," + base64.b64encode(content).decode()
	messages = [
		{
			"role": "user",
			"content": [
				{"type": "text", "text": VISION_PROMPT},
				{"type": "image_url", "image_url": {"url": data_url}},
			],
		}
	]
	answer = completion(target.provider, target.model, messages, temperature=0)
	text = (answer.content or "").strip()
	return {
		"success": True,
		"text": text,
		"pages": [{"index": 0, "label": "", "text": text}],
		"strategy": "vision",
		"model": answer.model,
	}
