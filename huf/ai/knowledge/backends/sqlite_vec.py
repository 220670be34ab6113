"""Local vector search: a sqlite-vec `vec0` table of the source's dimension, cosine distance."""

from __future__ import annotations

from typing import Any

from frappe.utils import cint

from huf.ai.knowledge.backends.base import Chunk, Hit
from huf.ai.knowledge.backends.sqlite_base import SQLiteBackend
from huf.ai.knowledge.embeddings import embed_query, embed_texts

MAX_K = 4096  # sqlite-vec's limit for k


def cosine_score(distance: float) -> float:
	"""Cosine distance (0 = same direction) as a 0..1 similarity, higher is better."""
	return max(0.0, min(1.0, 1.0 - float(distance)))


class SQLiteVecBackend(SQLiteBackend):
	kind = "sqlite_vec"
	extensions = True

	@property
	def dimension(self) -> int:
		return cint(self.source.get("vector_dimension"))

	def prepare(self, conn: Any) -> None:
		import sqlite_vec

		conn.enable_load_extension(True)
		sqlite_vec.load(conn)
		conn.enable_load_extension(False)

	def compatible(self, conn: Any) -> bool:
		stored = self.get_meta(conn, "dimension")
		return super().compatible(conn) and (stored is None or int(stored) == self.dimension)

	def create_index_tables(self, conn: Any) -> None:
		conn.execute(
			"CREATE VIRTUAL TABLE IF NOT EXISTS vec_chunks USING vec0("
			f"chunk_id INTEGER PRIMARY KEY, embedding float[{self.dimension}] distance_metric=cosine,"
			" generation INTEGER, knowledge_input TEXT, input_type TEXT, title TEXT)"
		)
		if self.get_meta(conn, "dimension") is None:
			self.set_meta(conn, "dimension", str(self.dimension))

	def prepare_chunks(self, chunks: list[Chunk]) -> list[list[float]]:
		return embed_texts(self.source, [chunk.text for chunk in chunks])

	def index_chunks(
		self, conn: Any, ids: list[int], chunks: list[Chunk], prepared: Any, generation: int
	) -> None:
		from sqlite_vec import serialize_float32

		conn.executemany(
			"INSERT INTO vec_chunks (chunk_id, embedding, generation, knowledge_input, input_type, title)"
			" VALUES (?, ?, ?, ?, ?, ?)",
			[
				(
					chunk_id,
					serialize_float32(vector),
					generation,
					c.knowledge_input,
					c.input_type or "",
					c.title or "",
				)
				for chunk_id, c, vector in zip(ids, chunks, prepared, strict=True)
			],
		)

	def unindex(self, conn: Any, where: str, params: tuple) -> None:
		ids = [row[0] for row in conn.execute(f"SELECT id FROM chunks WHERE {where}", params)]
		for start in range(0, len(ids), 500):
			batch = ids[start : start + 500]
			conn.execute(f"DELETE FROM vec_chunks WHERE chunk_id IN ({', '.join('?' * len(batch))})", batch)

	def search(self, query: str, top_k: int = 5, filters: dict | None = None) -> list[Hit]:
		from sqlite_vec import serialize_float32

		conn = self.connect()
		if not (query or "").strip() or conn is None or not self.compatible(conn):
			return []
		clauses, params = self.filter_sql(filters, alias="vec_chunks")
		vector = embed_query(self.source, query)
		with self.snapshot(conn):
			found = conn.execute(
				"SELECT chunk_id, distance FROM vec_chunks"
				f" WHERE embedding MATCH ? AND k = ? AND generation = ?{clauses}",
				(serialize_float32(vector), min(int(top_k), MAX_K), self.live_generation(conn), *params),
			).fetchall()
			distances = {row[0]: row[1] for row in found}
			rows = conn.execute(
				f"SELECT * FROM chunks WHERE id IN ({', '.join('?' * len(distances))})", list(distances)
			).fetchall()
		hits = [self.hit(row, cosine_score(distances[row["id"]]), distances[row["id"]]) for row in rows]
		return sorted(hits, key=lambda hit: hit.raw_score)
