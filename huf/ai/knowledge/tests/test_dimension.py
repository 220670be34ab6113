"""The vector dimension is learnt from the embedding model, kept from clients, and learnt again on Rebuild."""

from __future__ import annotations

import frappe

from huf.ai.knowledge.embeddings import PROBE_TEXT, EmbeddingDimensionError
from huf.ai.knowledge.retriever import knowledge_search
from huf.huf.doctype.knowledge_source.knowledge_source import rebuild_index
from huf.tests.support.factories import make_user
from huf.tests.support.knowledge import (
	DIMENSION,
	EMBED_MODEL,
	KnowledgeTestCase,
	add_text,
	make_source,
	source_values,
	wait_indexed,
)

MANAGER = "knowledge-manager@example.com"


class TestVectorDimension(KnowledgeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		frappe.db.commit()

	def setUp(self):
		self.llm.embedding_dimension = DIMENSION
		self.llm.reset()

	def tearDown(self):
		frappe.set_user("Administrator")
		self.llm.embedding_dimension = DIMENSION

	def probes(self) -> list[dict]:
		return [
			r
			for r in self.llm.requests
			if r["path"].endswith("/embeddings") and r["body"]["input"] == [PROBE_TEXT]
		]

	def test_the_model_is_asked_once_and_a_sent_dimension_is_ignored(self):
		source = make_source("dimension asked", "sqlite_vec", vector_dimension=999)
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "vector_dimension"), DIMENSION)
		self.assertEqual(len(self.probes()), 1)
		frappe.set_user(MANAGER)
		doc = frappe.get_doc("Knowledge Source", source)
		doc.description = "Edited by a manager"
		doc.vector_dimension = 32  # read-only: the engine's, kept as stored
		doc.save()
		self.assertEqual(
			frappe.db.get_value("Knowledge Source", source, ["vector_dimension", "description"]),
			(DIMENSION, "Edited by a manager"),
		)
		self.assertEqual(len(self.probes()), 1)  # nothing that decides the size changed: not asked again
		frappe.db.commit()

	def test_another_model_is_asked_again(self):
		source = make_source("dimension model change", "chroma")
		self.llm.embedding_dimension = 64
		doc = frappe.get_doc("Knowledge Source", source)
		doc.embedding_model = "embed-model-small"
		doc.save(ignore_permissions=True)
		frappe.db.commit()
		self.assertEqual((doc.vector_dimension, len(self.probes())), (64, 2))

	def test_a_model_that_cannot_tell_is_a_clear_error(self):
		self.llm.embedding_dimension = 0  # empty vectors; the model is not in LiteLLM's table either
		with self.assertRaisesRegex(
			EmbeddingDimensionError, f"could not learn the vector size of the embedding model {EMBED_MODEL}"
		):
			frappe.get_doc(source_values("KT dimension unknown", "sqlite_vec")).insert(
				ignore_permissions=True
			)
		frappe.db.rollback()

	def test_a_changed_model_asks_for_a_rebuild_which_learns_the_new_size(self):
		for knowledge_type in ("sqlite_vec", "chroma"):
			with self.subTest(knowledge_type):
				self.llm.embedding_dimension = DIMENSION
				self.check_rebuild_learns_the_size(knowledge_type)

	def check_rebuild_learns_the_size(self, knowledge_type: str) -> None:
		source = make_source(f"dimension rebuild {knowledge_type}", knowledge_type)
		add_text(source, "The blender warranty covers the motor for two years.")
		wait_indexed()
		self.llm.embedding_dimension = 64  # the model behind the same name now returns shorter vectors
		late = add_text(source, "Refunds are paid back within five business days.")
		wait_indexed()
		status, error = frappe.db.get_value("Knowledge Input", late, ["status", "error_message"])
		self.assertEqual(status, "Error")
		self.assertIn(f"returns vectors of 64 dimensions, but the index of Knowledge Source {source}", error)
		self.assertIn("Rebuild the index", error)
		frappe.set_user(MANAGER)
		rebuild_index(source)
		frappe.db.commit()
		wait_indexed()
		frappe.set_user("Administrator")
		doc = frappe.get_doc("Knowledge Source", source)
		self.assertEqual((doc.vector_dimension, doc.status, doc.total_chunks), (64, "Ready", 2))
		self.assertEqual(len(knowledge_search("refunds", knowledge_source=source)), 2)

	def test_only_the_engine_writes_it_over_rest(self):
		from frappe.client import set_value

		from huf.huf.engine_owned import engine_fields

		self.assertIn("vector_dimension", engine_fields("Knowledge Source"))
		source = make_source("dimension rest", "sqlite_vec")
		frappe.set_user(MANAGER)
		set_value("Knowledge Source", source, "vector_dimension", 5)
		frappe.db.commit()
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "vector_dimension"), DIMENSION)
