"""Each backend against the same contract: add, ranking, delete by input, clear, filters, rebuild, stats."""

from __future__ import annotations

import threading

import frappe

from huf.ai.knowledge.backends import Chunk, get_backend
from huf.ai.knowledge.embeddings import EmbeddingDimensionError
from huf.tests.support.knowledge import FACTS, KnowledgeTestCase, source_values


def chunk(key: str, text: str | None = None, position: int = 0) -> Chunk:
	return Chunk(
		text=text or FACTS[key],
		knowledge_input=f"in-{key}",
		title=key.title(),
		input_type="Text",
		position=position,
		tokens=12,
	)


class BackendContract:
	knowledge_type = ""
	source_name = ""

	def setUp(self):
		super().setUp()
		self.source = frappe._dict(source_values(self.source_name, self.knowledge_type))
		self.source.name = self.source_name
		self.backend = get_backend(self.source)
		self.backend.drop()

	def tearDown(self):
		self.backend.drop()
		self.backend.close()
		super().tearDown()

	def fill(self) -> None:
		self.backend.add_chunks([chunk(key) for key in FACTS])

	def test_search_ranks_the_matching_chunk_first(self):
		self.fill()
		hits = self.backend.search("refunds paid back to the original card", top_k=3)
		self.assertEqual(hits[0].knowledge_input, "in-refunds")
		self.assertEqual(hits[0].text, FACTS["refunds"])
		self.assertEqual(hits[0].knowledge_source, self.source_name)
		self.assertEqual((hits[0].title, hits[0].tokens), ("Refunds", 12))
		scores = [hit.score for hit in hits]
		self.assertEqual(scores, sorted(scores, reverse=True))
		self.assertTrue(all(0 < score <= 1 for score in scores), scores)
		warranty = self.backend.search("warranty blender defects", top_k=1)
		self.assertEqual([hit.knowledge_input for hit in warranty], ["in-warranty"])

	def test_delete_by_input_removes_only_that_input(self):
		self.fill()
		self.assertEqual(self.backend.delete_by_input("in-refunds"), 1)
		found = {hit.knowledge_input for hit in self.backend.search("refunds card warranty orders", top_k=5)}
		self.assertNotIn("in-refunds", found)
		self.assertIn("in-warranty", found)
		self.assertEqual(self.backend.stats()["chunks"], 2)

	def test_clear_empties_the_index(self):
		self.fill()
		self.backend.clear()
		self.assertEqual(self.backend.search("refunds card", top_k=5), [])
		self.assertEqual(self.backend.stats()["chunks"], 0)
		self.backend.add_chunks([chunk("shipping")])
		self.assertEqual(self.backend.search("Pune warehouse", top_k=5)[0].knowledge_input, "in-shipping")

	def test_filters_limit_the_inputs_searched(self):
		self.fill()
		hits = self.backend.search("refunds card", top_k=5, filters={"knowledge_input": "in-shipping"})
		self.assertEqual({hit.knowledge_input for hit in hits}, {"in-shipping"} if hits else set())
		with self.assertRaisesRegex(frappe.ValidationError, "Unknown filter"):
			self.backend.search("refunds", filters={"owner": "x"})

	def test_rebuild_switches_only_when_complete(self):
		self.fill()
		before = self.backend.stats()
		generation = self.backend.start_rebuild()
		self.assertGreater(generation, before["generation"])
		self.backend.add_chunks(
			[chunk("refunds", "Refunds now take ten business days to the card.")], generation=generation
		)
		# still the old index while the rebuild runs
		hits = self.backend.search("refunds card", top_k=5)
		self.assertIn(FACTS["refunds"], [hit.text for hit in hits])
		self.assertEqual(self.backend.stats()["chunks"], 3)
		self.backend.finish_rebuild(generation)
		texts = [hit.text for hit in self.backend.search("refunds card", top_k=5)]
		self.assertEqual(texts, ["Refunds now take ten business days to the card."])
		stats = self.backend.stats()
		self.assertEqual((stats["chunks"], stats["inputs"], stats["generation"]), (1, 1, generation))

	def test_aborted_rebuild_keeps_the_old_index(self):
		self.fill()
		generation = self.backend.start_rebuild()
		self.backend.add_chunks([chunk("refunds", "Half-built text about refunds.")], generation=generation)
		self.backend.abort_rebuild(generation)
		texts = [hit.text for hit in self.backend.search("refunds card", top_k=5)]
		self.assertIn(FACTS["refunds"], texts)
		self.assertNotIn("Half-built text about refunds.", texts)
		self.assertEqual(self.backend.stats()["chunks"], 3)

	def test_searches_during_a_rebuild_always_find_the_passage(self):
		import time

		self.fill()
		site, sites_path = frappe.local.site, frappe.local.sites_path
		results, errors, stop = [], [], threading.Event()

		def search_loop():
			frappe.init(site, sites_path=sites_path)
			frappe.connect()
			try:
				backend = get_backend(self.source)
				while not stop.is_set():
					results.append(len(backend.search("refunds card", top_k=3)))
			except Exception as exc:  # reported by the assertion below
				errors.append(exc)
			finally:
				frappe.destroy()
				stop.set()

		def wait_for_searches(count: int) -> None:
			deadline = time.monotonic() + 30
			while len(results) < count and not stop.is_set() and time.monotonic() < deadline:
				time.sleep(0.005)

		searcher = threading.Thread(target=search_loop)
		searcher.start()
		try:
			wait_for_searches(1)
			generation = self.backend.start_rebuild()
			for i in range(20):
				self.backend.add_chunks(
					[chunk("refunds", f"Refunds batch {i} go back to the card.", position=i)],
					generation=generation,
				)
				wait_for_searches(len(results) + 1)
			self.backend.finish_rebuild(generation)
			wait_for_searches(len(results) + 5)
		finally:
			stop.set()
			searcher.join(30)
		self.assertEqual(errors, [])
		self.assertGreater(len(results), 25)
		self.assertTrue(min(results) > 0, results)
		self.assertEqual(self.backend.stats()["chunks"], 20)

	def test_stats_and_health(self):
		self.assertFalse(self.backend.health()["ok"])
		self.fill()
		stats = self.backend.stats()
		self.assertEqual((stats["chunks"], stats["inputs"]), (3, 3))
		self.assertTrue(self.backend.health()["ok"], self.backend.health())


class TestSQLiteFTSBackend(BackendContract, KnowledgeTestCase):
	knowledge_type = "sqlite_fts"
	source_name = "KT fts contract"

	def test_index_is_a_private_file_of_the_source(self):
		self.fill()
		url = "/private/files/knowledge/KT fts contract.sqlite3"
		file_row = frappe.db.get_value(
			"File", {"file_url": url}, ["is_private", "attached_to_doctype"], as_dict=True
		)
		self.assertEqual((file_row.is_private, file_row.attached_to_doctype), (1, "Knowledge Source"))
		conn = self.backend.connect()
		self.assertEqual(conn.execute("PRAGMA journal_mode").fetchone()[0], "wal")
		self.backend.drop()
		self.assertFalse(frappe.db.exists("File", {"file_url": url}))


class TestSQLiteVecBackend(BackendContract, KnowledgeTestCase):
	knowledge_type = "sqlite_vec"
	source_name = "KT vec contract"

	def test_embeddings_come_from_the_provider_in_batches(self):
		self.backend.add_chunks([chunk("refunds", f"text number {i}", position=i) for i in range(70)])
		embedding_calls = [r for r in self.llm.requests if r["path"].endswith("/embeddings")]
		self.assertEqual([len(r["body"]["input"]) for r in embedding_calls], [64, 6])
		self.assertEqual(embedding_calls[0]["headers"]["authorization"], "Bearer sk-knowledge-test")

	def test_a_dimension_mismatch_is_a_clear_error(self):
		source = frappe._dict(source_values("KT vec wrong", "sqlite_vec", vector_dimension=16))
		source.name = "KT vec wrong"
		backend = get_backend(source)
		try:
			with self.assertRaisesRegex(
				EmbeddingDimensionError,
				"returns vectors of 256 dimensions.*is built for 16. Rebuild the index",
			):
				backend.add_chunks([chunk("refunds")])
		finally:
			backend.drop()


class TestChromaFileBackend(BackendContract, KnowledgeTestCase):
	knowledge_type = "chroma"
	source_name = "KT chroma contract"

	def test_collection_lives_in_the_private_files(self):
		from huf.ai.knowledge.backends.chroma import chroma_path

		self.fill()
		path = chroma_path(self.source_name)
		self.assertTrue(path.startswith(frappe.get_site_path("private", "files", "knowledge")))
		self.assertGreater(self.backend.stats()["size_bytes"], 0)
		self.backend.drop()
		import os

		self.assertFalse(os.path.exists(path))
