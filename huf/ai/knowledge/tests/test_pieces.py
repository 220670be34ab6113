"""How a document was split: the pieces the index stores, and a preview with proposed settings."""

from __future__ import annotations

import frappe

from huf.ai.knowledge.pieces import MAX_PAGE_LENGTH
from huf.api.knowledge import input_pieces, preview_split
from huf.tests.support.factories import make_user
from huf.tests.support.knowledge import KnowledgeTestCase, add_text, make_source, wait_indexed

OUTSIDER = "knowledge-outsider@example.com"
READER = "knowledge-reader@example.com"
LONG_TEXT = " ".join(f"Sentence number {i} talks about the blender warranty and refunds." for i in range(120))


class TestPieces(KnowledgeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(READER, "Huf User")
		make_user(OUTSIDER, "Huf Viewer")
		frappe.db.commit()

	def tearDown(self):
		frappe.set_user("Administrator")

	def assert_pieces_match(self, stored: dict, indexed: int) -> None:
		self.assertEqual(stored["total"], indexed)
		for piece in stored["pieces"]:
			self.assertEqual(piece["characters"], len(piece["text"]))
			self.assertGreater(piece["tokens"], 0)
			self.assertLessEqual(piece["tokens"], stored["settings"]["chunk_size"])

	def check_source(self, knowledge_type: str) -> None:
		source = make_source(f"pieces {knowledge_type}", knowledge_type, chunk_size=64, chunk_overlap=8)
		name = add_text(source, LONG_TEXT, title="Long")
		wait_indexed()
		indexed = frappe.db.get_value("Knowledge Input", name, "chunk_count")
		self.assertGreater(indexed, 5)
		first = input_pieces(name, start=0, page_length=3)
		self.assertEqual(
			first["settings"],
			{"splitter": "SentenceSplitter", "chunk_size": 64, "chunk_overlap": 8, "unit": "tokens"},
		)
		self.assertEqual(([p["position"] for p in first["pieces"]], first["status"]), ([0, 1, 2], "Indexed"))
		self.assert_pieces_match(first, indexed)
		rest = input_pieces(name, start=3, page_length=MAX_PAGE_LENGTH + 50)
		self.assertEqual(rest["page_length"], MAX_PAGE_LENGTH)
		self.assertEqual([p["position"] for p in rest["pieces"]], list(range(3, indexed)))
		self.assertIn("Sentence number 0 ", first["pieces"][0]["text"])
		# the preview with the source's settings gives what the index stores, and writes nothing
		preview = preview_split(source, knowledge_input=name, page_length=MAX_PAGE_LENGTH)
		self.assertEqual(
			[p["text"] for p in preview["pieces"]], [p["text"] for p in first["pieces"] + rest["pieces"]]
		)
		self.assertEqual(frappe.db.get_value("Knowledge Input", name, "chunk_count"), indexed)

	def test_the_index_is_read_back_in_order_and_paged(self):
		for knowledge_type in ("sqlite_fts", "sqlite_vec", "chroma"):
			with self.subTest(knowledge_type):
				self.check_source(knowledge_type)

	def test_try_other_settings_on_a_text(self):
		source = make_source("pieces preview")
		small = preview_split(source, text=LONG_TEXT, chunk_size=40, chunk_overlap=0, page_length=2)
		large = preview_split(source, text=LONG_TEXT, chunk_size=400, chunk_overlap=20)
		self.assertEqual(small["settings"]["chunk_size"], 40)
		self.assertEqual(len(small["pieces"]), 2)
		self.assertGreater(small["total"], large["total"])
		self.assertEqual(small["characters"], len(LONG_TEXT))
		self.assertTrue(all(p["tokens"] <= 40 for p in small["pieces"]))
		defaults = preview_split(source, text="One short sentence.")
		self.assertEqual((defaults["settings"]["chunk_size"], defaults["total"]), (512, 1))
		self.assertFalse(frappe.db.exists("Knowledge Input", {"knowledge_source": source}))

	def test_bad_settings_and_empty_text_are_clear_errors(self):
		source = make_source("pieces errors")
		with self.assertRaisesRegex(frappe.ValidationError, "Chunk Overlap"):
			preview_split(source, text="Some text.", chunk_size=50, chunk_overlap=50)
		with self.assertRaisesRegex(frappe.ValidationError, "Chunk Size"):
			preview_split(source, text="Some text.", chunk_size=-3)
		with self.assertRaisesRegex(frappe.ValidationError, "Give a text"):
			preview_split(source, text="   ")
		other = make_source("pieces other")
		name = add_text(other, "A text of another source.")
		with self.assertRaisesRegex(frappe.ValidationError, "is not an input of"):
			preview_split(source, knowledge_input=name)

	def test_read_permission_on_the_source_is_checked(self):
		source = make_source("pieces private")
		name = add_text(source, "The vault code is in the manager's drawer.")
		wait_indexed()
		frappe.set_user(READER)
		self.assertEqual(input_pieces(name)["total"], 1)
		self.assertEqual(preview_split(source, text="Hello there.")["total"], 1)
		frappe.set_user(OUTSIDER)
		with self.assertRaises(frappe.PermissionError):
			input_pieces(name)
		with self.assertRaises(frappe.PermissionError):
			preview_split(source, text="Hello there.")
		with self.assertRaises(frappe.PermissionError):
			preview_split(source, knowledge_input=name)
