"""How a document was (or would be) split: its pieces with their sizes and the splitter settings.

`input_pieces` reads what the index stores for an indexed input; `preview_split` splits a text or an
existing input with proposed settings and writes nothing. Both are paged and check read permission;
their endpoints are `huf.api.knowledge.input_pieces` and `preview_split`.
"""

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.knowledge.backends import Chunk, get_backend
from huf.ai.knowledge.chunkers import check_chunking, splitter_settings

PAGE_LENGTH = 20
MAX_PAGE_LENGTH = 100
MAX_PREVIEW_CHARS = 500_000  # a pasted text to try settings on; larger documents are added, then previewed
STALE_STATUSES = ("Pending", "Rebuilding")


def input_pieces(knowledge_input: str, start: int = 0, page_length: int = PAGE_LENGTH) -> dict:
	"""The pieces the index holds for one input (a page of them), their sizes and the splitter settings."""
	doc = readable_input(knowledge_input)
	source = readable_source(doc.knowledge_source)
	start, page_length = paging(start, page_length)
	backend = get_backend(source)
	try:
		total, chunks = backend.input_chunks(doc.name, start, page_length)
	finally:
		backend.close()
	return {
		"knowledge_input": doc.name,
		"knowledge_source": source.name,
		"status": doc.status,
		"settings": splitter_settings(source.chunk_size, source.chunk_overlap),
		# the source's settings changed since this input was indexed: a rebuild is queued or running
		"settings_changed": source.status in STALE_STATUSES and doc.status == "Indexed",
		**page_of(total, start, page_length, chunks),
	}


def preview_split(
	knowledge_source: str,
	text: str | None = None,
	knowledge_input: str | None = None,
	chunk_size: int | None = None,
	chunk_overlap: int | None = None,
	start: int = 0,
	page_length: int = PAGE_LENGTH,
) -> dict:
	"""Split `text` (or the content of `knowledge_input`) with proposed settings, writing nothing.

	Settings left out are the source's. The pieces are the ones indexing would store.
	"""
	from huf.ai.knowledge.indexer import make_chunks
	from huf.ai.media.extractors import Page

	source = readable_source(knowledge_source)
	size = cint(chunk_size) if chunk_size not in (None, "") else cint(source.chunk_size)
	overlap = cint(chunk_overlap) if chunk_overlap not in (None, "") else cint(source.chunk_overlap)
	check_chunking(size, overlap)
	start, page_length = paging(start, page_length)
	if knowledge_input:
		from huf.ai.knowledge.extractors import extract_input

		doc = readable_input(knowledge_input)
		if doc.knowledge_source != source.name:
			frappe.throw(
				_("{0} is not an input of {1}.").format(frappe.bold(doc.name), frappe.bold(source.name))
			)
		pages = extract_input(doc)
	else:
		text = (text or "").strip()
		if not text:
			frappe.throw(_("Give a text or a knowledge input to split."))
		if len(text) > MAX_PREVIEW_CHARS:
			frappe.throw(
				_(
					"The text is {0} characters long; a preview splits at most {1}. Add it as an input instead."
				).format(len(text), MAX_PREVIEW_CHARS)
			)
		doc = frappe._dict(name="", title="", input_type="Text")
		pages = [Page(0, text)]
	chunks = make_chunks(doc, pages, size, overlap)
	return {
		"knowledge_source": source.name,
		"knowledge_input": doc.name or None,
		"settings": splitter_settings(size, overlap),
		"characters": sum(len(page.text) for page in pages),
		"tokens": sum(chunk.tokens for chunk in chunks),
		**page_of(len(chunks), start, page_length, chunks[start : start + page_length]),
	}


def readable_input(name: str) -> Any:
	doc = frappe.get_doc("Knowledge Input", name)
	doc.check_permission("read")
	return doc


def readable_source(name: str) -> Any:
	if not name:
		frappe.throw(_("Knowledge Source is required."))
	doc = frappe.get_doc("Knowledge Source", name)
	doc.check_permission("read")
	return doc


def paging(start: Any, page_length: Any) -> tuple[int, int]:
	return max(0, cint(start)), min(max(1, cint(page_length) or PAGE_LENGTH), MAX_PAGE_LENGTH)


def page_of(total: int, start: int, page_length: int, chunks: list[Chunk]) -> dict:
	return {
		"total": total,
		"start": start,
		"page_length": page_length,
		"pieces": [
			{
				"position": chunk.position,
				"text": chunk.text,
				"characters": len(chunk.text),
				"tokens": chunk.tokens,
				"page": (chunk.metadata or {}).get("page") or "",
			}
			for chunk in chunks
		],
	}
