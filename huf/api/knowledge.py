"""Knowledge endpoints of the dashboard: how an input was split (its pieces) and a preview of a split with
proposed settings. Both check read permission on the input and its source (huf.ai.knowledge.pieces,
which does the work); a preview writes nothing. docs/knowledge.md.
"""

import frappe

from huf.ai.knowledge import pieces


@frappe.whitelist()
def input_pieces(knowledge_input: str, start: int = 0, page_length: int = pieces.PAGE_LENGTH) -> dict:
	"""The pieces the index holds for one input (a page of them), their sizes and the splitter settings."""
	return pieces.input_pieces(knowledge_input, start, page_length)


@frappe.whitelist(methods=["POST"])
def preview_split(
	knowledge_source: str,
	text: str | None = None,
	knowledge_input: str | None = None,
	chunk_size: int | None = None,
	chunk_overlap: int | None = None,
	start: int = 0,
	page_length: int = pieces.PAGE_LENGTH,
) -> dict:
	"""Split `text` (or the content of `knowledge_input`) with proposed settings, writing nothing.

	Settings left out are the source's. The pieces are the ones indexing would store.
	"""
	return pieces.preview_split(
		knowledge_source, text, knowledge_input, chunk_size, chunk_overlap, start, page_length
	)
