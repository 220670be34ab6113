import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.ai.knowledge.chunkers import check_chunking

VECTOR_TYPES = ("sqlite_vec", "chroma")


class KnowledgeSource(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		chroma_host: DF.Data | None
		chroma_mode: DF.Literal["File", "Server"]
		chroma_port: DF.Int
		chroma_ssl: DF.Check
		chunk_overlap: DF.Int
		chunk_size: DF.Int
		description: DF.SmallText | None
		disabled: DF.Check
		embedding_model: DF.Data | None
		embedding_provider: DF.Link | None
		index_error: DF.SmallText | None
		knowledge_type: DF.Literal["sqlite_fts", "sqlite_vec", "chroma"]
		last_indexed_at: DF.Datetime | None
		source_name: DF.Data
		status: DF.Literal["Pending", "Indexing", "Ready", "Error", "Rebuilding"]
		storage_mode: DF.Literal["Frappe File"]
		total_chunks: DF.Int
		total_inputs: DF.Int
		vector_dimension: DF.Int
	# end: auto-generated types

	def validate(self) -> None:
		self.source_name = (self.source_name or "").strip()
		if "/" in self.source_name or ".." in self.source_name:
			frappe.throw(_("Source Name cannot contain / or .. (it names the index file)."))
		if self.knowledge_type in VECTOR_TYPES:
			if not (self.embedding_model or "").strip():
				frappe.throw(
					_("Embedding Model is required for the {0} backend.").format(self.knowledge_type)
				)
			if self.dimension_unknown():
				from huf.ai.knowledge.embeddings import detect_dimension

				self.vector_dimension = detect_dimension(self)
		else:
			self.vector_dimension = 0  # learnt again when the source searches by meaning
		if self.knowledge_type == "chroma" and self.chroma_mode == "Server":
			if not (self.chroma_host or "").strip():
				frappe.throw(_("Chroma Host is required when Chroma Mode is Server."))
			if not 0 < cint(self.chroma_port) < 65536:
				frappe.throw(_("Chroma Port must be between 1 and 65535 when Chroma Mode is Server."))
		check_chunking(self.chunk_size, self.chunk_overlap)
		self.flag_index_change()

	def dimension_unknown(self) -> bool:
		"""Whether the vector size must be asked: new source, or another type, model or provider."""
		before = self.get_doc_before_save()
		if before is None or cint(self.vector_dimension) <= 0:
			return True
		return any(
			before.get(f) != self.get(f) for f in ("knowledge_type", "embedding_model", "embedding_provider")
		)

	def flag_index_change(self) -> None:
		"""Changing how text is indexed makes the existing index stale."""
		before = self.get_doc_before_save()
		if not before or self.status == "Pending":
			return
		fields = (
			"knowledge_type",
			"embedding_model",
			"vector_dimension",
			"chunk_size",
			"chunk_overlap",
			"chroma_mode",
		)
		if any(before.get(f) != self.get(f) for f in fields):
			self.status = "Pending"


@frappe.whitelist(methods=["POST"])
def rebuild_index(knowledge_source: str) -> dict:
	"""Queue a full rebuild of the index of `knowledge_source` (Desk button Rebuild Index).

	Searches keep using the current index until the rebuilt one is complete.
	"""
	from huf.ai import live_events
	from huf.ai.knowledge.indexer import enqueue_rebuild

	doc = frappe.get_doc("Knowledge Source", knowledge_source)
	doc.check_permission("write")
	redetect_dimension(doc)
	enqueue_rebuild(doc.name)
	doc.db_set("status", "Rebuilding", update_modified=False)
	live_events.knowledge_update(doc.name, "Rebuilding")
	return {"queued": True, "status": "Rebuilding"}


def redetect_dimension(doc: Document) -> None:
	"""Before a rebuild, ask the embedding model its vector size again (it may have changed under its name).

	When it cannot be asked, the stored size stays and the rebuild reports the model's error.
	"""
	if doc.knowledge_type not in VECTOR_TYPES:
		return
	from huf.ai.knowledge.embeddings import detect_dimension

	try:
		found = detect_dimension(doc, ask_first=True)
	except frappe.ValidationError:
		frappe.clear_last_message()
		return
	if found != cint(doc.vector_dimension):
		doc.db_set("vector_dimension", found, update_modified=False)


@frappe.whitelist()
def test_search(knowledge_source: str, query: str, top_k: int = 5) -> list:
	"""Search one knowledge source as the current user (Desk button Test Search)."""
	doc = frappe.get_doc("Knowledge Source", knowledge_source)
	doc.check_permission("read")
	from huf.ai.knowledge.retriever import knowledge_search

	return knowledge_search(query=query, knowledge_source=doc.name, top_k=cint(top_k) or 5)
