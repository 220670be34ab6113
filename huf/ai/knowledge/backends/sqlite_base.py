"""What the two SQLite backends share: one file per source, the `chunks` table, generations.

The file is `<site>/private/files/knowledge/<source>.sqlite3`, registered as a private File attached
to the Knowledge Source. It runs in WAL mode (readers never wait for the writer) with memory-mapped
reads. `meta` holds the backend kind, the live generation and the one being rebuilt.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import frappe
from frappe import _

from huf.ai.knowledge.backends.base import FILTER_KEYS, Chunk, Hit, KnowledgeBackend, normalise_filters

INDEX_FOLDER = "knowledge"
MMAP_SIZE = 256 * 1024 * 1024
_local = threading.local()


def index_folder() -> str:
	return frappe.get_site_path("private", "files", INDEX_FOLDER)


def index_file_url(source_name: str) -> str:
	return f"/private/files/{INDEX_FOLDER}/{source_name}.sqlite3"


def index_path(source_name: str) -> str:
	return os.path.join(index_folder(), f"{source_name}.sqlite3")


def sqlite_module(extensions: bool = False) -> Any:
	"""The stdlib sqlite3, or pysqlite3 when extensions are needed and this Python cannot load them."""
	import sqlite3

	if not extensions or hasattr(sqlite3.Connection, "enable_load_extension"):
		return sqlite3
	try:
		import pysqlite3.dbapi2 as pysqlite3
	except ImportError:
		frappe.throw(
			_(
				"This Python's sqlite3 cannot load extensions, which the sqlite_vec backend needs. "
				"Install pysqlite3-binary or use a Python built with loadable SQLite extensions."
			)
		)
	return pysqlite3


def remove_index_files(path: str) -> None:
	for suffix in ("", "-wal", "-shm", "-journal"):
		try:
			os.remove(path + suffix)
		except FileNotFoundError:
			pass


def forget_connections(path: str) -> None:
	"""Close this thread's cached connection to `path` (other threads notice the file changed)."""
	cached = getattr(_local, "connections", {}).pop(path, None)
	if cached:
		cached[1].close()


class SQLiteBackend(KnowledgeBackend):
	"""A backend whose chunks live in the source's SQLite file; subclasses add the search index."""

	extensions = False

	def __init__(self, source: Any):
		super().__init__(source)
		self.path = index_path(self.name)

	# -- connection ------------------------------------------------------------------------------
	def connect(self, create: bool = False) -> Any | None:
		"""This thread's connection to the index (None when there is no index file and not `create`)."""
		connections = getattr(_local, "connections", None)
		if connections is None:
			connections = _local.connections = {}
		try:
			inode = os.stat(self.path).st_ino
		except FileNotFoundError:
			inode = None
		cached = connections.get(self.path)
		if cached and cached[0] == inode and inode is not None:
			return cached[1]
		if cached:
			cached[1].close()
			connections.pop(self.path, None)
		if inode is None and not create:
			return None
		os.makedirs(os.path.dirname(self.path), exist_ok=True)
		sqlite = sqlite_module(self.extensions)
		conn = sqlite.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
		conn.row_factory = sqlite.Row
		conn.execute("PRAGMA journal_mode=WAL")
		conn.execute("PRAGMA synchronous=NORMAL")
		conn.execute(f"PRAGMA mmap_size={MMAP_SIZE}")
		conn.execute("PRAGMA temp_store=MEMORY")
		conn.execute("PRAGMA cache_size=-16000")
		self.prepare(conn)
		self.ensure_schema(conn)
		connections[self.path] = (os.stat(self.path).st_ino, conn)
		if inode is None:
			self.register_file()
		return conn

	def prepare(self, conn: Any) -> None:
		"""Per-connection setup (loading extensions)."""

	def ensure_schema(self, conn: Any) -> None:
		conn.executescript(
			"""
			CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
			CREATE TABLE IF NOT EXISTS chunks (
				id INTEGER PRIMARY KEY,
				generation INTEGER NOT NULL,
				knowledge_input TEXT NOT NULL,
				title TEXT NOT NULL DEFAULT '',
				input_type TEXT NOT NULL DEFAULT '',
				position INTEGER NOT NULL DEFAULT 0,
				tokens INTEGER NOT NULL DEFAULT 0,
				text TEXT NOT NULL,
				metadata TEXT
			);
			CREATE INDEX IF NOT EXISTS chunks_input ON chunks (knowledge_input);
			CREATE INDEX IF NOT EXISTS chunks_generation ON chunks (generation);
			"""
		)
		if self.get_meta(conn, "backend") is None:
			self.set_meta(conn, "backend", self.kind)
			self.set_meta(conn, "generation", "1")
		if self.compatible(conn):
			self.create_index_tables(conn)

	def create_index_tables(self, conn: Any) -> None:
		raise NotImplementedError

	def compatible(self, conn: Any) -> bool:
		"""Whether the file was built by this backend with the source's current settings."""
		return self.get_meta(conn, "backend") == self.kind

	@staticmethod
	def get_meta(conn: Any, key: str) -> str | None:
		row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
		return row[0] if row else None

	@staticmethod
	def set_meta(conn: Any, key: str, value: str | None) -> None:
		if value is None:
			conn.execute("DELETE FROM meta WHERE key = ?", (key,))
		else:
			conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, str(value)))

	def live_generation(self, conn: Any) -> int:
		return int(self.get_meta(conn, "generation") or 1)

	def register_file(self) -> None:
		"""Record the index file as a private File attached to its Knowledge Source.

		Inserted as a row: Frappe's File.insert would copy a file it has not seen before into
		/private/files/ and record the copy instead of the index.
		"""
		url = index_file_url(self.name)
		if frappe.db.exists("File", {"file_url": url}):
			return
		doc = frappe.get_doc(
			{
				"doctype": "File",
				"file_name": os.path.basename(self.path),
				"file_url": url,
				"is_private": 1,
				"folder": "Home/Attachments",
				"attached_to_doctype": "Knowledge Source",
				"attached_to_name": self.name,
			}
		)
		doc.name = frappe.generate_hash(length=10)
		doc.db_insert()

	# -- writes -------------------------------------------------------------------------------------
	def add_chunks(self, chunks: list[Chunk], generation: int | None = None) -> int:
		if not chunks:
			return 0
		conn = self.connect(create=True)
		self.require_compatible(conn)
		prepared = self.prepare_chunks(chunks)
		conn.execute("BEGIN IMMEDIATE")
		try:
			generation = generation or self.live_generation(conn)
			ids = []
			for chunk in chunks:
				cursor = conn.execute(
					"INSERT INTO chunks (generation, knowledge_input, title, input_type, position, tokens, text, metadata)"
					" VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
					(
						generation,
						chunk.knowledge_input,
						chunk.title or "",
						chunk.input_type or "",
						chunk.position,
						chunk.tokens,
						chunk.text,
						json.dumps(chunk.metadata or {}, default=str),
					),
				)
				ids.append(cursor.lastrowid)
			self.index_chunks(conn, ids, chunks, prepared, generation)
			conn.execute("COMMIT")
		except BaseException:
			conn.execute("ROLLBACK")
			raise
		return len(chunks)

	def prepare_chunks(self, chunks: list[Chunk]) -> Any:
		"""Work done before the write transaction (embeddings), so the file is not locked meanwhile."""
		return None

	def index_chunks(
		self, conn: Any, ids: list[int], chunks: list[Chunk], prepared: Any, generation: int
	) -> None:
		"""Add freshly inserted chunks to the search index (FTS does it with triggers)."""

	def unindex(self, conn: Any, where: str, params: tuple) -> None:
		"""Remove the chunks matching `where` from the search index before they are deleted."""

	def _delete(self, conn: Any, where: str, params: tuple) -> int:
		self.unindex(conn, where, params)
		return conn.execute(f"DELETE FROM chunks WHERE {where}", params).rowcount

	def delete_by_input(self, knowledge_input: str) -> int:
		conn = self.connect()
		if conn is None or not self.compatible(conn):
			return 0
		conn.execute("BEGIN IMMEDIATE")
		try:
			count = self._delete(conn, "knowledge_input = ?", (knowledge_input,))
			conn.execute("COMMIT")
		except BaseException:
			conn.execute("ROLLBACK")
			raise
		return count

	def clear(self) -> None:
		conn = self.connect()
		if conn is None:
			return
		if not self.compatible(conn):
			self.drop()
			return
		conn.execute("BEGIN IMMEDIATE")
		try:
			self._delete(conn, "1 = 1", ())
			conn.execute("COMMIT")
		except BaseException:
			conn.execute("ROLLBACK")
			raise

	def start_rebuild(self) -> int:
		conn = self.connect(create=True)
		if not self.compatible(conn):
			# another backend or vector size built this file: nothing in it can be searched any more
			self.drop()
			conn = self.connect(create=True)
		stale = self.get_meta(conn, "building")
		if stale:
			self.abort_rebuild(int(stale))
		row = conn.execute("SELECT MAX(generation) FROM chunks").fetchone()
		generation = max(self.live_generation(conn), row[0] or 0) + 1
		self.set_meta(conn, "building", str(generation))
		return generation

	def finish_rebuild(self, generation: int) -> None:
		conn = self.connect(create=True)
		conn.execute("BEGIN IMMEDIATE")
		try:
			self.set_meta(conn, "generation", str(generation))
			self.set_meta(conn, "building", None)
			self._delete(conn, "generation != ?", (generation,))
			conn.execute("COMMIT")
		except BaseException:
			conn.execute("ROLLBACK")
			raise

	def abort_rebuild(self, generation: int) -> None:
		conn = self.connect()
		if conn is None:
			return
		conn.execute("BEGIN IMMEDIATE")
		try:
			if generation != self.live_generation(conn):
				self._delete(conn, "generation = ?", (generation,))
			self.set_meta(conn, "building", None)
			conn.execute("COMMIT")
		except BaseException:
			conn.execute("ROLLBACK")
			raise

	def optimize(self) -> None:
		conn = self.connect()
		if conn is None:
			return
		stale = self.get_meta(conn, "building")
		if stale:
			self.abort_rebuild(int(stale))
		self.optimize_index(conn)
		conn.execute("PRAGMA optimize")
		conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

	def optimize_index(self, conn: Any) -> None:
		pass

	def drop(self) -> None:
		forget_connections(self.path)
		remove_index_files(self.path)
		for name in frappe.get_all("File", filters={"file_url": index_file_url(self.name)}, pluck="name"):
			frappe.delete_doc("File", name, ignore_permissions=True, force=True)

	def require_compatible(self, conn: Any) -> None:
		if not self.compatible(conn):
			frappe.throw(
				_("The index of {0} was built with other settings. Rebuild the index.").format(
					frappe.bold(self.name)
				)
			)

	# -- reads --------------------------------------------------------------------------------------
	@contextmanager
	def snapshot(self, conn: Any) -> Iterator[None]:
		"""One read transaction, so the live generation and the rows read belong together."""
		conn.execute("BEGIN")
		try:
			yield
		finally:
			conn.execute("COMMIT")

	def filter_sql(self, filters: dict | None, alias: str = "c") -> tuple[str, list]:
		clauses, params = [], []
		for key, values in normalise_filters(filters).items():
			if key not in FILTER_KEYS:  # normalise_filters refuses these already; keep SQL safe regardless
				continue
			clauses.append(f"{alias}.{key} IN ({', '.join('?' * len(values))})")
			params.extend(values)
		return "".join(f" AND {clause}" for clause in clauses), params

	def hit(self, row: Any, score: float, raw_score: float) -> Hit:
		return Hit(
			text=row["text"],
			score=round(score, 6),
			knowledge_source=self.name,
			knowledge_input=row["knowledge_input"],
			title=row["title"],
			position=row["position"],
			tokens=row["tokens"],
			metadata=json.loads(row["metadata"] or "{}"),
			raw_score=raw_score,
		)

	def stats(self) -> dict:
		conn = self.connect()
		if conn is None or not self.compatible(conn):
			return {"chunks": 0, "inputs": 0, "size_bytes": 0, "generation": 0}
		generation = self.live_generation(conn)
		chunks, inputs = conn.execute(
			"SELECT COUNT(*), COUNT(DISTINCT knowledge_input) FROM chunks WHERE generation = ?", (generation,)
		).fetchone()
		size = sum(
			os.path.getsize(self.path + suffix)
			for suffix in ("", "-wal")
			if os.path.exists(self.path + suffix)
		)
		return {"chunks": chunks, "inputs": inputs, "size_bytes": size, "generation": generation}

	def input_chunks(self, knowledge_input: str, start: int = 0, limit: int = 20) -> tuple[int, list[Chunk]]:
		conn = self.connect()
		if conn is None or not self.compatible(conn):
			return 0, []
		where = "generation = ? AND knowledge_input = ?"
		params = (self.live_generation(conn), knowledge_input)
		total = conn.execute(f"SELECT COUNT(*) FROM chunks WHERE {where}", params).fetchone()[0]
		rows = conn.execute(
			f"SELECT * FROM chunks WHERE {where} ORDER BY position, id LIMIT ? OFFSET ?",
			(*params, int(limit), int(start)),
		).fetchall()
		return total, [
			Chunk(
				text=row["text"],
				knowledge_input=row["knowledge_input"],
				title=row["title"],
				input_type=row["input_type"],
				position=row["position"],
				tokens=row["tokens"],
				metadata=json.loads(row["metadata"] or "{}"),
			)
			for row in rows
		]

	def health(self) -> dict:
		if not os.path.exists(self.path):
			return {"ok": False, "message": _("No index yet: add an input or rebuild the index.")}
		conn = self.connect()
		if not self.compatible(conn):
			return {"ok": False, "message": _("The index was built with other settings: rebuild it.")}
		result = conn.execute("PRAGMA quick_check").fetchone()[0]
		return {"ok": result == "ok", "message": result}
