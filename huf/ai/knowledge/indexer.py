"""Ingestion: inputs are extracted, chunked and stored in the background, one writer per source.

Status of a Knowledge Input: Pending -> Processing -> Indexed | Error (with the reason).
Status of a Knowledge Source: Pending -> Indexing -> Ready | Error; Rebuilding during a rebuild.
Every write to a source's index happens under the cache lock `knowledge_index_<source>`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai import live_events
from huf.ai.knowledge.backends import Chunk, get_backend
from huf.ai.knowledge.chunkers import chunk_text

LOCK_TIMEOUT = 60 * 60  # a crashed writer's lock expires after this
LOCK_WAIT = 10 * 60
QUEUE = "long"


class IndexBusyError(frappe.ValidationError):
	"""Another job is writing the source's index."""


@contextmanager
def source_lock(source_name: str, wait: float = LOCK_WAIT) -> Iterator[None]:
	"""Hold the single-writer lock of a source."""
	from redis.exceptions import LockError

	cache = frappe.cache()
	# the raw `lock` (redis.Redis.lock) takes the name as given: the site's prefix keeps sites apart
	name = cache.make_key(f"knowledge_index_{source_name}")
	lock = cache.lock(name, timeout=LOCK_TIMEOUT, blocking_timeout=wait)
	if not lock.acquire():
		raise IndexBusyError(_("Knowledge Source {0} is being indexed by another job.").format(source_name))
	try:
		yield
	finally:
		try:
			lock.release()
		except LockError:
			pass


# -- queueing ----------------------------------------------------------------------------------------
def enqueue_input(knowledge_input: str, knowledge_source: str) -> None:
	"""Index one input after the current transaction commits."""
	frappe.enqueue(
		"huf.ai.knowledge.indexer.index_input",
		queue=QUEUE,
		knowledge_input=knowledge_input,
		knowledge_source=knowledge_source,
		enqueue_after_commit=True,
	)


def enqueue_rebuild(knowledge_source: str) -> None:
	frappe.enqueue(
		"huf.ai.knowledge.indexer.rebuild_knowledge_index",
		queue=QUEUE,
		source_name=knowledge_source,
		job_id=f"huf:knowledge_rebuild:{knowledge_source}",
		deduplicate=True,
		enqueue_after_commit=True,
	)


# -- jobs --------------------------------------------------------------------------------------------
def index_input(knowledge_input: str, knowledge_source: str) -> None:
	"""(Re)index one input: its old chunks are replaced, the rest of the source is untouched."""
	if not frappe.db.exists("Knowledge Source", knowledge_source):
		return
	with source_lock(knowledge_source):
		source = frappe.get_doc("Knowledge Source", knowledge_source)
		backend = get_backend(source)
		try:
			if frappe.db.get_value("Knowledge Input", knowledge_input, "knowledge_source") != source.name:
				backend.delete_by_input(knowledge_input)  # deleted, or moved to another source, meanwhile
			else:
				set_source_status(source.name, "Indexing")
				doc = frappe.get_doc("Knowledge Input", knowledge_input)
				chunks = prepare_input(doc, source)
				if chunks is not None:
					try:
						backend.delete_by_input(doc.name)
						backend.add_chunks(chunks)
					except Exception as exc:
						mark_input(doc.name, "Error", error=readable(exc))
						raise
					mark_input(doc.name, "Indexed", chunks=len(chunks))
			update_source(source, backend)
		except Exception as exc:
			frappe.db.rollback()
			update_source(source, backend, error=readable(exc))
			log_unexpected(exc, source.name)
		finally:
			backend.close()


def rebuild_knowledge_index(source_name: str) -> None:
	"""Index every input again into a new generation and switch to it when complete.

	Searches answer from the old index meanwhile. An input that cannot be read is marked Error and
	left out; a failure of the storage or the embedding model aborts and keeps the old index.
	"""
	if not frappe.db.exists("Knowledge Source", source_name):
		return
	with source_lock(source_name):
		source = frappe.get_doc("Knowledge Source", source_name)
		set_source_status(source.name, "Rebuilding")
		backend = get_backend(source)
		generation = None
		try:
			generation = backend.start_rebuild()
			for name in frappe.get_all(
				"Knowledge Input",
				filters={"knowledge_source": source.name},
				pluck="name",
				order_by="creation asc",
			):
				doc = frappe.get_doc("Knowledge Input", name)
				chunks = prepare_input(doc, source)
				if chunks is None:
					continue
				backend.add_chunks(chunks, generation=generation)
				mark_input(doc.name, "Indexed", chunks=len(chunks))
			backend.finish_rebuild(generation)
			update_source(source, backend)
		except Exception as exc:
			frappe.db.rollback()
			if generation is not None:
				backend.abort_rebuild(generation)
			for name in frappe.get_all(
				"Knowledge Input",
				filters={"knowledge_source": source.name, "status": "Processing"},
				pluck="name",
			):
				mark_input(name, "Error", error=readable(exc))
			update_source(
				source,
				backend,
				error=_("Rebuild failed, the previous index is kept: {0}").format(readable(exc)),
			)
			log_unexpected(exc, source.name)
		finally:
			backend.close()


def prepare_input(doc: Any, source: Any) -> list[Chunk] | None:
	"""The chunks of one input; None (input marked Error) when its content cannot be read."""
	from huf.ai.knowledge.extractors import extract_input

	mark_input(doc.name, "Processing")
	try:
		pages = extract_input(doc)
		return make_chunks(doc, pages, cint(source.chunk_size), cint(source.chunk_overlap))
	except Exception as exc:
		frappe.db.rollback()
		mark_input(doc.name, "Error", error=readable(exc))
		log_unexpected(exc, source.name)
		return None


def make_chunks(doc: Any, pages: list, chunk_size: int, chunk_overlap: int) -> list[Chunk]:
	chunks = []
	for page in pages:
		for text, tokens in chunk_text(page.text, chunk_size, chunk_overlap):
			chunks.append(
				Chunk(
					text=text,
					knowledge_input=doc.name,
					title=doc.title or "",
					input_type=doc.input_type or "",
					position=len(chunks),
					tokens=tokens,
					metadata={"page": page.label} if page.label else {},
				)
			)
	return chunks


# -- status ------------------------------------------------------------------------------------------
def mark_input(name: str, status: str, chunks: int | None = None, error: str | None = None) -> None:
	values: dict[str, Any] = {"status": status, "error_message": error or ""}
	if status == "Indexed":
		values.update(chunk_count=chunks or 0, indexed_at=now_datetime())
	elif status == "Error":
		values["chunk_count"] = 0
	source = frappe.db.get_value("Knowledge Input", name, "knowledge_source")
	if source:
		frappe.db.set_value("Knowledge Input", name, values, update_modified=False)
		live_events.knowledge_update(source)  # an input moved on: the source's progress changed
	frappe.db.commit()


def set_source_status(name: str, status: str) -> None:
	frappe.db.set_value("Knowledge Source", name, "status", status, update_modified=False)
	live_events.knowledge_update(name, status)
	frappe.db.commit()


def update_source(source: Any, backend: Any, error: str | None = None) -> None:
	"""Totals from the index; Error when the job failed or an input could not be indexed, else Ready."""
	if not frappe.db.exists("Knowledge Source", source.name):
		return
	try:
		stats = backend.stats()
	except Exception as exc:
		stats, error = {"chunks": 0}, error or readable(exc)
	failed = frappe.get_all(
		"Knowledge Input",
		filters={"knowledge_source": source.name, "status": "Error"},
		fields=["title", "name", "error_message"],
		limit=3,
	)
	if not error and failed:
		error = "\n".join(f"{row.title or row.name}: {row.error_message}" for row in failed)
	frappe.db.set_value(
		"Knowledge Source",
		source.name,
		{
			"status": "Error" if error else "Ready",
			"index_error": error or "",
			"total_inputs": frappe.db.count("Knowledge Input", {"knowledge_source": source.name}),
			"total_chunks": stats.get("chunks") or 0,
			"last_indexed_at": now_datetime(),
		},
		update_modified=False,
	)
	live_events.knowledge_update(source.name, "Error" if error else "Ready", error)
	frappe.db.commit()


def readable(exc: BaseException) -> str:
	from frappe.utils import strip_html

	return (strip_html(str(exc)) or type(exc).__name__).strip()[:1000]


def log_unexpected(exc: BaseException, source: str) -> None:
	"""Errors users cause (bad file, refused URL) are on the input; anything else also goes to the Error Log."""
	if isinstance(exc, frappe.ValidationError):
		return
	frappe.log_error(title=_("Knowledge indexing failed for {0}").format(source))
	frappe.db.commit()


# -- deletion (doc_events) ---------------------------------------------------------------------------
def on_input_update(doc: Any, method: str | None = None) -> None:
	"""New input, or its content changed: index it (after commit)."""
	before = doc.get_doc_before_save()
	if (
		before is None
		or before.source_hash != doc.source_hash
		or before.knowledge_source != doc.knowledge_source
	):
		if before is not None and before.knowledge_source != doc.knowledge_source:
			enqueue_input(doc.name, before.knowledge_source)  # removes it from the old source
		if doc.status != "Pending":
			doc.db_set("status", "Pending", update_modified=False)
		enqueue_input(doc.name, doc.knowledge_source)


def on_input_trash(doc: Any, method: str | None = None) -> None:
	"""A deleted input's chunks are removed (the job finds the input gone)."""
	if not frappe.flags.get("deleting_knowledge_source"):
		enqueue_input(doc.name, doc.knowledge_source)


def on_source_update(doc: Any, method: str | None = None) -> None:
	"""Indexing settings changed (the controller set status Pending): rebuild with the new ones."""
	before = doc.get_doc_before_save()
	if before is not None and doc.status == "Pending" and before.status != "Pending":
		if frappe.db.exists("Knowledge Input", {"knowledge_source": doc.name}):
			enqueue_rebuild(doc.name)


def on_source_trash(doc: Any, method: str | None = None) -> None:
	"""Delete the source's inputs, then (after commit) its index files or collection."""
	frappe.flags.deleting_knowledge_source = True
	try:
		for name in frappe.get_all("Knowledge Input", filters={"knowledge_source": doc.name}, pluck="name"):
			frappe.delete_doc("Knowledge Input", name, ignore_permissions=True)
	finally:
		frappe.flags.deleting_knowledge_source = False
	frappe.enqueue(
		"huf.ai.knowledge.indexer.drop_index",
		queue=QUEUE,
		source=source_settings(doc),
		enqueue_after_commit=True,
	)


def source_settings(doc: Any) -> dict:
	"""The fields that locate a source's index (the source is gone when the drop job runs)."""
	return {
		field: doc.get(field)
		for field in (
			"name",
			"knowledge_type",
			"vector_dimension",
			"chroma_mode",
			"chroma_host",
			"chroma_port",
			"chroma_ssl",
		)
	}


def drop_index(source: dict) -> None:
	"""Remove a deleted source's index storage (unless a source of that name exists again)."""
	if frappe.db.exists("Knowledge Source", source["name"]):
		return
	with source_lock(source["name"]):
		get_backend(frappe._dict(source)).drop()
		frappe.db.commit()
