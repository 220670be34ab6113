"""Knowledge backends behind one interface (see `base.KnowledgeBackend`), picked by Knowledge Type."""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

from huf.ai.knowledge.backends.base import Chunk, Hit, KnowledgeBackend

BACKENDS = {
	"sqlite_fts": "huf.ai.knowledge.backends.sqlite_fts.SQLiteFTSBackend",
	"sqlite_vec": "huf.ai.knowledge.backends.sqlite_vec.SQLiteVecBackend",
	"chroma": "huf.ai.knowledge.backends.chroma.ChromaBackend",
}


def get_backend(source: Any) -> KnowledgeBackend:
	"""The backend of a Knowledge Source (document or name)."""
	if isinstance(source, str):
		source = frappe.get_cached_doc("Knowledge Source", source)
	path = BACKENDS.get(source.get("knowledge_type") or "sqlite_fts")
	if not path:
		frappe.throw(_("Unknown Knowledge Type {0}.").format(source.get("knowledge_type")))
	return frappe.get_attr(path)(source)


__all__ = ["BACKENDS", "Chunk", "Hit", "KnowledgeBackend", "get_backend"]
