"""Chunking with LlamaIndex's `SentenceSplitter` (imported on first use: it is slow to import)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

DEFAULT_CHUNK_SIZE = 512
DEFAULT_CHUNK_OVERLAP = 50
SPLITTER = "SentenceSplitter"  # what `settings` reports: sentence boundaries, sizes in tokens


def check_chunking(chunk_size: Any, chunk_overlap: Any) -> None:
	"""Refuse a chunk size below 1 or an overlap outside 0..chunk_size-1."""
	if cint(chunk_size) <= 0:
		frappe.throw(_("Chunk Size must be greater than 0."))
	if not 0 <= cint(chunk_overlap) < cint(chunk_size):
		frappe.throw(_("Chunk Overlap must be at least 0 and smaller than Chunk Size."))


def splitter_settings(chunk_size: Any, chunk_overlap: Any) -> dict:
	"""The splitter and its settings, as a preview reports them."""
	return {
		"splitter": SPLITTER,
		"chunk_size": cint(chunk_size),
		"chunk_overlap": cint(chunk_overlap),
		"unit": "tokens",
	}


@lru_cache(maxsize=16)
def get_splitter(chunk_size: int, chunk_overlap: int) -> Any:
	from llama_index.core.node_parser import SentenceSplitter

	return SentenceSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap)


@lru_cache(maxsize=1)
def get_tokenizer() -> Any:
	from llama_index.core.utils import get_tokenizer as llama_tokenizer

	return llama_tokenizer()


def count_tokens(text: str) -> int:
	"""Tokens of `text` with the tokenizer the splitter measures chunks with."""
	return len(get_tokenizer()(text or ""))


def chunk_text(
	text: str, chunk_size: int = DEFAULT_CHUNK_SIZE, chunk_overlap: int = DEFAULT_CHUNK_OVERLAP
) -> list[tuple[str, int]]:
	"""`text` split at sentence boundaries into chunks of at most `chunk_size` tokens, with their token counts."""
	text = (text or "").strip()
	if not text:
		return []
	chunk_size = int(chunk_size or DEFAULT_CHUNK_SIZE)
	chunk_overlap = max(0, min(int(chunk_overlap or 0), chunk_size - 1))
	pieces = get_splitter(chunk_size, chunk_overlap).split_text(text)
	return [(piece, count_tokens(piece)) for piece in pieces if piece.strip()]
