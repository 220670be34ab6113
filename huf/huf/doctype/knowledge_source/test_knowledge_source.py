import frappe

from huf.tests.support.case import HufTestCase


def new_source(**values):
	return frappe.get_doc({"doctype": "Knowledge Source", "source_name": "Test Source", **values})


class TestKnowledgeSource(HufTestCase):
	def test_keyword_source_saves_with_defaults(self):
		doc = new_source().insert()
		self.assertEqual((doc.name, doc.knowledge_type, doc.status), ("Test Source", "sqlite_fts", "Pending"))
		self.assertEqual((doc.chunk_size, doc.chunk_overlap, doc.vector_dimension), (512, 50, 0))

	def test_vector_backends_need_an_embedding_model_and_learn_its_dimension(self):
		for backend in ("sqlite_vec", "chroma"):
			with (
				self.subTest(backend),
				self.assertRaisesRegex(frappe.ValidationError, "Embedding Model is required"),
			):
				new_source(knowledge_type=backend).insert()
		# LiteLLM's model table knows this model (no call is made); a dimension sent along is ignored
		doc = new_source(
			knowledge_type="sqlite_vec",
			embedding_model="openai/text-embedding-3-small",
			vector_dimension=-1,
		).insert()
		self.assertEqual(doc.vector_dimension, 1536)

	def test_chroma_server_needs_host_and_port(self):
		base = {
			"knowledge_type": "chroma",
			"embedding_model": "openai/text-embedding-3-small",
			"chroma_mode": "Server",
		}
		with self.assertRaisesRegex(frappe.ValidationError, "Chroma Host is required"):
			new_source(**base, chroma_host=" ").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Chroma Port"):
			new_source(**base, chroma_host="127.0.0.1", chroma_port=70000).insert()
		new_source(**base, chroma_host="127.0.0.1", chroma_port=8000).insert()

	def test_chunking_limits(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Chunk Overlap"):
			new_source(chunk_size=100, chunk_overlap=100).insert()

	def test_changing_the_backend_marks_the_index_stale(self):
		doc = new_source().insert()
		doc.db_set("status", "Ready")
		doc.reload()
		doc.chunk_size = 256
		doc.save()
		self.assertEqual(doc.status, "Pending")
