"""ChromaDB: File mode (PersistentClient in the site's private files) or Server mode (HttpClient).

One collection per source, cosine space. Every record carries its `generation`; the live one is in
the collection's metadata, so a rebuild writes a new generation and switches with one call.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from typing import Any

import frappe
from frappe.utils import cint

from huf.ai.knowledge.backends.base import Chunk, Hit, KnowledgeBackend, normalise_filters
from huf.ai.knowledge.backends.sqlite_base import index_folder
from huf.ai.knowledge.backends.sqlite_vec import cosine_score
from huf.ai.knowledge.embeddings import embed_query, embed_texts

_clients: dict[tuple, Any] = {}


def chroma_path(source_name: str) -> str:
	return os.path.join(index_folder(), f"{source_name}.chroma")


def collection_name(site: str, source_name: str) -> str:
	"""A Chroma-valid collection name (3-512 of [a-zA-Z0-9._-]), unique per site and source."""
	slug = re.sub(r"[^a-zA-Z0-9_-]+", "_", source_name).strip("_-")[:40] or "source"
	digest = hashlib.sha1(f"{site}:{source_name}".encode()).hexdigest()[:10]  # noqa: S324 - a name, not security
	return f"huf_{slug}_{digest}"


def settings_of(source: Any) -> dict:
	"""What locates a source's Chroma storage (kept by the drop job after the source is deleted)."""
	return {
		"name": source.name,
		"chroma_mode": source.get("chroma_mode") or "File",
		"chroma_host": source.get("chroma_host"),
		"chroma_port": cint(source.get("chroma_port")),
		"chroma_ssl": cint(source.get("chroma_ssl")),
	}


def get_client(settings: dict) -> Any:
	import chromadb
	from chromadb.config import Settings

	if settings["chroma_mode"] == "Server":
		key = ("http", settings["chroma_host"], settings["chroma_port"], bool(settings["chroma_ssl"]))
		if key not in _clients:
			_clients[key] = chromadb.HttpClient(
				host=settings["chroma_host"],
				port=settings["chroma_port"],
				ssl=bool(settings["chroma_ssl"]),
				settings=Settings(anonymized_telemetry=False),
			)
		return _clients[key]
	path = chroma_path(settings["name"])
	key = ("file", path)
	if key not in _clients:
		os.makedirs(path, exist_ok=True)
		_clients[key] = chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False))
	return _clients[key]


class ChromaBackend(KnowledgeBackend):
	kind = "chroma"

	def __init__(self, source: Any):
		super().__init__(source)
		self.settings = settings_of(source)
		self.collection_name = collection_name(frappe.local.site, self.name)
		self._collection = None

	def collection(self, create: bool = True) -> Any | None:
		if self._collection is None:
			client = get_client(self.settings)
			if create:
				self._collection = client.get_or_create_collection(
					self.collection_name,
					metadata={"hnsw:space": "cosine", "generation": 1},
					embedding_function=None,
				)
			else:
				try:
					self._collection = client.get_collection(self.collection_name, embedding_function=None)
				except Exception:
					return None
		return self._collection

	def live_generation(self, collection: Any) -> int:
		return cint((collection.metadata or {}).get("generation")) or 1

	def set_meta(self, collection: Any, **values) -> None:
		metadata = {k: v for k, v in (collection.metadata or {}).items() if not k.startswith("hnsw:")}
		metadata.update(values)
		collection.modify(metadata={k: v for k, v in metadata.items() if v is not None})
		self._collection = None

	def add_chunks(self, chunks: list[Chunk], generation: int | None = None) -> int:
		if not chunks:
			return 0
		vectors = embed_texts(self.source, [chunk.text for chunk in chunks])
		collection = self.collection()
		generation = generation or self.live_generation(collection)
		collection.upsert(
			ids=[f"{generation}:{c.knowledge_input}:{c.position}" for c in chunks],
			embeddings=vectors,
			documents=[c.text for c in chunks],
			metadatas=[
				{
					"generation": generation,
					"knowledge_input": c.knowledge_input,
					"title": c.title or "",
					"input_type": c.input_type or "",
					"position": c.position,
					"tokens": c.tokens,
				}
				for c in chunks
			],
		)
		return len(chunks)

	def delete_by_input(self, knowledge_input: str) -> int:
		collection = self.collection(create=False)
		if collection is None:
			return 0
		ids = collection.get(where={"knowledge_input": knowledge_input}, include=[])["ids"]
		if ids:
			collection.delete(ids=ids)
		return len(ids)

	def clear(self) -> None:
		self.drop()

	def start_rebuild(self) -> int:
		collection = self.collection()
		stored = self.stored_dimension(collection)
		if stored and stored != cint(self.source.get("vector_dimension")):
			# vectors of another size cannot share a collection: nothing in it can be searched any more
			self.drop()
			collection = self.collection()
		stale = cint((collection.metadata or {}).get("building"))
		if stale:
			self.abort_rebuild(stale)
			collection = self.collection()
		generation = self.live_generation(collection) + 1
		self.set_meta(collection, building=generation)
		return generation

	@staticmethod
	def stored_dimension(collection: Any) -> int | None:
		"""The size of the vectors in the collection (None when it is empty)."""
		found = collection.get(limit=1, include=["embeddings"])["embeddings"]
		return len(found[0]) if found is not None and len(found) else None

	def finish_rebuild(self, generation: int) -> None:
		collection = self.collection()
		self.set_meta(collection, generation=generation, building=None)
		self.collection().delete(where={"generation": {"$ne": generation}})

	def abort_rebuild(self, generation: int) -> None:
		collection = self.collection(create=False)
		if collection is None:
			return
		if generation != self.live_generation(collection):
			collection.delete(where={"generation": generation})
		self.set_meta(collection, building=None)

	def optimize(self) -> None:
		collection = self.collection(create=False)
		stale = cint(((collection.metadata or {}) if collection else {}).get("building"))
		if stale:
			self.abort_rebuild(stale)

	def drop(self) -> None:
		drop_storage(self.settings, self.collection_name)
		self._collection = None

	def search(self, query: str, top_k: int = 5, filters: dict | None = None) -> list[Hit]:
		filters = normalise_filters(filters)
		self._collection = None  # the live generation may have changed since the last call
		collection = self.collection(create=False)
		if not (query or "").strip() or collection is None:
			return []
		vector = embed_query(self.source, query)
		generation = self.live_generation(collection)
		hits = self._query(collection, vector, generation, top_k, filters)
		if not hits:
			# a rebuild may have switched generations (and dropped ours) between the two calls
			self._collection = None
			collection = self.collection(create=False)
			if collection is not None and self.live_generation(collection) != generation:
				hits = self._query(collection, vector, self.live_generation(collection), top_k, filters)
		return hits

	def _query(
		self, collection: Any, vector: list[float], generation: int, top_k: int, filters: dict
	) -> list[Hit]:
		where = [{key: {"$in": values}} for key, values in filters.items()]
		if (collection.metadata or {}).get("building") is None and not where:
			# Outside a rebuild the collection holds only the live generation, and a metadata filter
			# makes Chroma scan (~30 ms at 10k records): query without one, check what came back.
			result = self._run_query(collection, vector, top_k, None)
			# (a record deleted by a concurrent rebuild comes back without metadata: query again, filtered)
			if all(meta and cint(meta.get("generation")) == generation for meta in result["metadatas"][0]):
				return self._hits(result)
		where.insert(0, {"generation": generation})
		return self._hits(
			self._run_query(collection, vector, top_k, where[0] if len(where) == 1 else {"$and": where})
		)

	@staticmethod
	def _run_query(collection: Any, vector: list[float], top_k: int, where: dict | None) -> dict:
		return collection.query(
			query_embeddings=[vector],
			n_results=int(top_k),
			where=where,
			include=["documents", "metadatas", "distances"],
		)

	def _hits(self, result: dict) -> list[Hit]:
		hits = []
		for text, meta, distance in zip(
			result["documents"][0], result["metadatas"][0], result["distances"][0], strict=True
		):
			if meta is None or text is None:  # deleted by a concurrent rebuild while the query ran
				continue
			hits.append(
				Hit(
					text=text,
					score=round(cosine_score(distance), 6),
					knowledge_source=self.name,
					knowledge_input=meta.get("knowledge_input") or "",
					title=meta.get("title") or "",
					position=cint(meta.get("position")),
					tokens=cint(meta.get("tokens")),
					raw_score=distance,
				)
			)
		return hits

	def stats(self) -> dict:
		self._collection = None
		collection = self.collection(create=False)
		if collection is None:
			return {"chunks": 0, "inputs": 0, "size_bytes": 0, "generation": 0}
		generation = self.live_generation(collection)
		metas = collection.get(where={"generation": generation}, include=["metadatas"])["metadatas"]
		size = 0
		if self.settings["chroma_mode"] != "Server":
			for folder, _dirs, files in os.walk(chroma_path(self.name)):
				size += sum(os.path.getsize(os.path.join(folder, f)) for f in files)
		return {
			"chunks": len(metas),
			"inputs": len({m.get("knowledge_input") for m in metas}),
			"size_bytes": size,
			"generation": generation,
		}

	def input_chunks(self, knowledge_input: str, start: int = 0, limit: int = 20) -> tuple[int, list[Chunk]]:
		collection = self.collection(create=False)
		if collection is None:
			return 0, []
		where = {
			"$and": [{"generation": self.live_generation(collection)}, {"knowledge_input": knowledge_input}]
		}
		found = collection.get(where=where, include=["documents", "metadatas"])
		rows = sorted(
			zip(found["documents"], found["metadatas"], strict=True),
			key=lambda row: cint(row[1].get("position")),
		)
		return len(rows), [
			Chunk(
				text=text,
				knowledge_input=knowledge_input,
				title=meta.get("title") or "",
				input_type=meta.get("input_type") or "",
				position=cint(meta.get("position")),
				tokens=cint(meta.get("tokens")),
			)
			for text, meta in rows[int(start) : int(start) + int(limit)]
		]

	def health(self) -> dict:
		try:
			get_client(self.settings).heartbeat()
		except Exception as exc:
			return {"ok": False, "message": str(exc)}
		if self.collection(create=False) is None:
			return {"ok": False, "message": "No index yet: add an input or rebuild the index."}
		return {"ok": True, "message": "ok"}


def drop_storage(settings: dict, name: str) -> None:
	"""Delete a source's collection (Server mode) or its whole folder (File mode)."""
	client = get_client(settings)
	try:
		client.delete_collection(name)
	except Exception:
		pass
	if settings["chroma_mode"] != "Server":
		_clients.pop(("file", chroma_path(settings["name"])), None)
		if hasattr(client, "close"):  # releases Chroma's cached System for the folder (chromadb >= 1.1)
			client.close()
		shutil.rmtree(chroma_path(settings["name"]), ignore_errors=True)
