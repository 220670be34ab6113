"""The interface every knowledge backend implements, and the records that cross it."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import frappe
from frappe import _

# Keys a search may filter on (chunk metadata), each an exact value or a list of values.
FILTER_KEYS = ("knowledge_input", "input_type", "title")


@dataclass
class Chunk:
	"""One piece of an input's text, with where it came from."""

	text: str
	knowledge_input: str
	title: str = ""
	input_type: str = ""
	position: int = 0
	tokens: int = 0
	metadata: dict = field(default_factory=dict)


@dataclass
class Hit:
	"""A search result. `score` is normalised to 0..1 (higher is better) so backends can be merged."""

	text: str
	score: float
	knowledge_source: str
	knowledge_input: str
	title: str = ""
	position: int = 0
	tokens: int = 0
	metadata: dict = field(default_factory=dict)
	raw_score: float = 0.0

	def as_dict(self) -> dict:
		return asdict(self)


class KnowledgeBackend:
	"""Storage of one Knowledge Source's chunks.

	Writes (add_chunks, delete_by_input, clear, rebuild) are made by one writer at a time: the
	indexer holds the source's lock. A rebuild writes a new *generation* beside the live one and
	switches to it in one step, so searches answer from the old index until the new one is complete.
	"""

	kind = ""

	def __init__(self, source: Any):
		self.source = source
		self.name = source.name

	# -- writes --------------------------------------------------------------------------------
	def add_chunks(self, chunks: list[Chunk], generation: int | None = None) -> int:
		"""Store `chunks` in the live generation (or in `generation` during a rebuild)."""
		raise NotImplementedError

	def delete_by_input(self, knowledge_input: str) -> int:
		"""Remove every chunk of one input (all generations); returns how many were removed."""
		raise NotImplementedError

	def clear(self) -> None:
		"""Remove every chunk."""
		raise NotImplementedError

	def start_rebuild(self) -> int:
		"""Begin a new generation and return its number (not searched until `finish_rebuild`)."""
		raise NotImplementedError

	def finish_rebuild(self, generation: int) -> None:
		"""Make `generation` the live index and drop the older ones."""
		raise NotImplementedError

	def abort_rebuild(self, generation: int) -> None:
		"""Drop a generation that will not be completed; the live index stays."""
		raise NotImplementedError

	def optimize(self) -> None:
		"""Maintenance: merge index segments, drop leftovers of interrupted rebuilds."""

	def drop(self) -> None:
		"""Delete the whole index storage of the source."""
		raise NotImplementedError

	# -- reads ---------------------------------------------------------------------------------
	def search(self, query: str, top_k: int = 5, filters: dict | None = None) -> list[Hit]:
		raise NotImplementedError

	def stats(self) -> dict:
		"""`{"chunks", "inputs", "size_bytes", "generation"}` of the live index."""
		raise NotImplementedError

	def input_chunks(self, knowledge_input: str, start: int = 0, limit: int = 20) -> tuple[int, list[Chunk]]:
		"""How many chunks of one input the live index holds, and `limit` of them from `start` (by position)."""
		raise NotImplementedError

	def health(self) -> dict:
		"""`{"ok": bool, "message": str}`: whether the index can be searched."""
		raise NotImplementedError

	def close(self) -> None:
		"""Release connections or clients."""


def normalise_filters(filters: dict | str | None) -> dict[str, list[str]]:
	"""`filters` as `{key: [values]}`, refusing keys that are not chunk metadata."""
	if not filters:
		return {}
	if isinstance(filters, str):
		try:
			filters = json.loads(filters)
		except ValueError:
			frappe.throw(_("Filters must be a JSON object."))
	if not isinstance(filters, dict):
		frappe.throw(_("Filters must be an object such as {0}.").format('{"knowledge_input": "..."}'))
	result = {}
	for key, value in filters.items():
		if key not in FILTER_KEYS:
			frappe.throw(
				_("Unknown filter {0}. Filters can use: {1}.").format(
					frappe.bold(key), ", ".join(FILTER_KEYS)
				)
			)
		values = value if isinstance(value, list | tuple | set) else [value]
		values = [str(v) for v in values if v is not None and str(v) != ""]
		if values:
			result[key] = values
	return result


def matches_filters(row: dict, filters: dict[str, list[str]]) -> bool:
	return all(str(row.get(key) or "") in values for key, values in filters.items())
