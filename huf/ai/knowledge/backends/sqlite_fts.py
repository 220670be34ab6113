"""Keyword search: SQLite FTS5 over the `chunks` table, ranked with BM25."""

from __future__ import annotations

import re
from typing import Any

from huf.ai.knowledge.backends.base import Hit
from huf.ai.knowledge.backends.sqlite_base import SQLiteBackend

MAX_QUERY_TERMS = 32
TITLE_WEIGHT = 0.3  # a word in the input's title counts less than one in the text


def fts_query(text: str) -> str:
	"""User text as an FTS5 query that cannot be anything but a list of words.

	Every word becomes a quoted string (so AND/OR/NOT/NEAR, `*`, `:`, `^`, parentheses and quotes
	lose their meaning) and the words are OR-ed; BM25 ranks chunks that contain more of them higher.
	"""
	words = []
	for word in re.findall(r"\w+", text or ""):
		word = word.lower()
		if word not in words:
			words.append(word)
	return " OR ".join(f'"{word}"' for word in words[:MAX_QUERY_TERMS])


def bm25_score(rank: float) -> float:
	"""FTS5's bm25 (negative, lower is better) mapped to 0..1, higher is better."""
	strength = max(0.0, -float(rank))
	return strength / (1.0 + strength)


class SQLiteFTSBackend(SQLiteBackend):
	kind = "sqlite_fts"

	def create_index_tables(self, conn: Any) -> None:
		conn.executescript(
			"""
			CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
				text, title, content='chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
			);
			CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
				INSERT INTO chunks_fts (rowid, text, title) VALUES (new.id, new.text, new.title);
			END;
			CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
				INSERT INTO chunks_fts (chunks_fts, rowid, text, title) VALUES ('delete', old.id, old.text, old.title);
			END;
			CREATE TRIGGER IF NOT EXISTS chunks_au AFTER UPDATE ON chunks BEGIN
				INSERT INTO chunks_fts (chunks_fts, rowid, text, title) VALUES ('delete', old.id, old.text, old.title);
				INSERT INTO chunks_fts (rowid, text, title) VALUES (new.id, new.text, new.title);
			END;
			"""
		)

	def search(self, query: str, top_k: int = 5, filters: dict | None = None) -> list[Hit]:
		match = fts_query(query)
		conn = self.connect()
		if not match or conn is None or not self.compatible(conn):
			return []
		where, params = self.filter_sql(filters)
		with self.snapshot(conn):
			rows = conn.execute(
				f"SELECT c.*, bm25(chunks_fts, 1.0, {TITLE_WEIGHT}) AS rank"
				" FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid"
				f" WHERE chunks_fts MATCH ? AND c.generation = ?{where}"
				" ORDER BY rank LIMIT ?",
				(match, self.live_generation(conn), *params, int(top_k)),
			).fetchall()
		return [self.hit(row, bm25_score(row["rank"]), row["rank"]) for row in rows]

	def optimize_index(self, conn: Any) -> None:
		conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')")
