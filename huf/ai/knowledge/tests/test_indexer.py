"""Indexing through the DocTypes and background jobs: formats, statuses, deletes, rebuilds, URLs, permissions."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import frappe

from huf.ai.knowledge.indexer import IndexBusyError, index_input, source_lock
from huf.ai.knowledge.retriever import knowledge_search
from huf.huf.doctype.knowledge_input.knowledge_input import reprocess_input
from huf.huf.doctype.knowledge_source import knowledge_source as source_actions
from huf.huf.doctype.knowledge_source.knowledge_source import rebuild_index
from huf.tests.support import sample_files
from huf.tests.support.factories import make_user
from huf.tests.support.knowledge import (
	KnowledgeTestCase,
	add_file,
	add_text,
	delete_source,
	index_files,
	make_source,
	wait_indexed,
)

READER = "knowledge-reader@example.com"
OUTSIDER = "knowledge-outsider@example.com"


def sample_documents() -> dict[str, bytes]:
	"""One file per supported format, each with a word found nowhere else."""
	return {
		"manual.pdf": sample_files.make_pdf(["Intro page", "The zephyrcode opens the vault."]),
		"policy.docx": sample_files.make_docx("Policy", ["Staff receive a quokkabonus each spring."]),
		"prices.xlsx": sample_files.make_xlsx({"Q1": [["item", "price"], ["narwhalwidget", 12]]}),
		"deck.pptx": sample_files.make_pptx([("Roadmap", "We launch the yetiphone in May.")]),
		"page.html": b"<html><script>var x=1;</script><body><h1>FAQ</h1><p>The axolotlplan is free.</p></body></html>",
		"notes.txt": b"Remember the wombatdrill on Fridays.",
		"readme.md": b"# Readme\n\nInstall the platypusmodule first.",
		"table.csv": b"city,team\nPune,okapisquad\n",
		"data.json": json.dumps({"mascot": "pangolinpal"}).encode(),
	}


class TestIndexing(KnowledgeTestCase):
	def test_every_file_format_is_extracted_and_searchable(self):
		source = make_source("formats")
		inputs = {name: add_file(source, name, content) for name, content in sample_documents().items()}
		wait_indexed()
		for name, input_name in inputs.items():
			status, chunks, error = frappe.db.get_value(
				"Knowledge Input", input_name, ["status", "chunk_count", "error_message"]
			)
			self.assertEqual((name, status), (name, "Indexed"), error)
			self.assertGreater(chunks, 0)
		doc = frappe.get_doc("Knowledge Source", source)
		self.assertEqual((doc.status, doc.total_inputs), ("Ready", 9))
		words = {
			"manual.pdf": "zephyrcode",
			"policy.docx": "quokkabonus",
			"prices.xlsx": "narwhalwidget",
			"deck.pptx": "yetiphone",
			"page.html": "axolotlplan",
			"notes.txt": "wombatdrill",
			"readme.md": "platypusmodule",
			"table.csv": "okapisquad",
			"data.json": "pangolinpal",
		}
		for name, word in words.items():
			with self.subTest(name):
				hits = knowledge_search(word, knowledge_source=source)
				self.assertEqual(hits[0]["knowledge_input"], inputs[name])
				self.assertIn(word, hits[0]["text"])
		self.assertEqual(knowledge_search("var x", knowledge_source=source), [])  # scripts are not text
		self.assertIn("KT formats.sqlite3", index_files())

	def test_pages_keep_their_label(self):
		source = make_source("pages")
		add_file(source, "two.pdf", sample_files.make_pdf(["alpha page text", "bravo page text"]))
		wait_indexed()
		hit = knowledge_search("bravo", knowledge_source=source)[0]
		self.assertEqual(hit["metadata"], {"page": "Page 2"})

	def test_identical_file_content_is_refused_as_a_duplicate(self):
		source = make_source("dupes")
		add_file(source, "one.txt", b"Same words in both files.")
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already in"):
			add_file(source, "two.txt", b"Same words in both files.")
		frappe.db.rollback()

	def test_deleting_an_input_removes_only_its_chunks(self):
		source = make_source("deletes")
		keep = add_text(source, "Bananas are yellow and sweet.")
		drop = add_text(source, "Bananas are sold in bunches of six.")
		wait_indexed()
		self.assertEqual(len(knowledge_search("bananas", knowledge_source=source)), 2)
		frappe.delete_doc("Knowledge Input", drop)
		frappe.db.commit()
		wait_indexed()
		hits = knowledge_search("bananas", knowledge_source=source)
		self.assertEqual([hit["knowledge_input"] for hit in hits], [keep])
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "total_chunks"), 1)

	def test_editing_an_input_reindexes_it(self):
		source = make_source("edits")
		name = add_text(source, "The office opens at nine.", title="Office hours")
		wait_indexed()
		doc = frappe.get_doc("Knowledge Input", name)
		doc.text = "The office opens at ten on holidays."
		doc.save()
		frappe.db.commit()
		wait_indexed()
		self.assertEqual(knowledge_search("nine", knowledge_source=source), [])
		self.assertIn("holidays", knowledge_search("holidays", knowledge_source=source)[0]["text"])

	def test_moving_an_input_to_another_source(self):
		first, second = make_source("move from"), make_source("move to")
		name = add_text(first, "Giraffes have long necks.")
		wait_indexed()
		doc = frappe.get_doc("Knowledge Input", name)
		doc.knowledge_source = second
		doc.save()
		frappe.db.commit()
		wait_indexed()
		self.assertEqual(knowledge_search("giraffes", knowledge_source=first), [])
		self.assertEqual(knowledge_search("giraffes", knowledge_source=second)[0]["knowledge_input"], name)
		self.assertEqual(frappe.db.get_value("Knowledge Source", first, "total_chunks"), 0)

	def test_deleting_a_source_removes_its_inputs_and_index_file(self):
		source = make_source("gone")
		add_text(source, "Temporary knowledge.")
		wait_indexed()
		self.assertIn("KT gone.sqlite3", index_files())
		delete_source(source)
		self.assertNotIn("KT gone.sqlite3", index_files())
		self.assertFalse(frappe.db.exists("Knowledge Input", {"knowledge_source": source}))
		self.assertFalse(frappe.db.exists("File", {"file_url": "/private/files/knowledge/KT gone.sqlite3"}))

	def test_rebuild_and_chunk_size_change(self):
		source = make_source("rebuilds", chunk_size=512, chunk_overlap=0)
		long_text = " ".join(f"Sentence number {i} talks about lighthouses." for i in range(60))
		name = add_text(source, long_text)
		wait_indexed()
		before = frappe.db.get_value("Knowledge Input", name, "chunk_count")
		self.assertEqual(rebuild_index(source), {"queued": True, "status": "Rebuilding"})
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "status"), "Rebuilding")
		frappe.db.commit()
		wait_indexed()
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "status"), "Ready")
		doc = frappe.get_doc("Knowledge Source", source)
		doc.chunk_size = 64
		doc.save()  # indexing settings changed: rebuilt with the new size
		frappe.db.commit()
		wait_indexed()
		after = frappe.db.get_value("Knowledge Input", name, "chunk_count")
		self.assertGreater(after, before)
		self.assertEqual(
			frappe.db.get_value("Knowledge Source", source, ["status", "total_chunks"]), ("Ready", after)
		)

	def test_reprocess_input(self):
		source = make_source("reprocess")
		name = add_text(source, "Cats sleep a lot.")
		wait_indexed()
		self.assertEqual(reprocess_input(name), {"queued": True, "status": "Pending"})
		frappe.db.commit()
		wait_indexed()
		self.assertEqual(frappe.db.get_value("Knowledge Input", name, "status"), "Indexed")
		self.assertEqual(len(knowledge_search("cats", knowledge_source=source)), 1)

	def test_one_writer_per_source(self):
		with source_lock("KT locked"):
			with self.assertRaises(IndexBusyError):
				with source_lock("KT locked", wait=0):
					pass
		with source_lock("KT locked", wait=0):
			pass

	def test_daily_maintenance_removes_orphaned_index_files(self):
		from huf.ai.knowledge.backends.sqlite_base import index_folder
		from huf.ai.knowledge.maintenance import daily_maintenance

		source = make_source("kept")
		add_text(source, "Kept knowledge.")
		wait_indexed()
		os.makedirs(index_folder(), exist_ok=True)
		orphan = os.path.join(index_folder(), "KT orphan.sqlite3")
		with open(orphan, "wb") as f:
			f.write(b"")
		daily_maintenance()
		self.assertNotIn("KT orphan.sqlite3", index_files())
		self.assertIn("KT kept.sqlite3", index_files())
		self.assertEqual(len(knowledge_search("kept", knowledge_source=source)), 1)


class TestURLInputs(KnowledgeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()

		class Page(BaseHTTPRequestHandler):
			def do_GET(self):
				body = b"<html><body><p>The lemurclub meets on Tuesdays.</p></body></html>"
				self.send_response(200)
				self.send_header("Content-Type", "text/html; charset=utf-8")
				self.send_header("Content-Length", str(len(body)))
				self.end_headers()
				self.wfile.write(body)

			def log_message(self, *args):
				pass

		cls.server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
		threading.Thread(target=cls.server.serve_forever, daemon=True).start()
		cls.addClassCleanup(cls.server.server_close)
		cls.addClassCleanup(cls.server.shutdown)
		cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}/club"

	def test_a_private_address_is_refused(self):
		source = make_source("urls")
		name = frappe.get_doc(
			{"doctype": "Knowledge Input", "knowledge_source": source, "input_type": "URL", "url": self.url}
		).insert()
		frappe.db.commit()
		wait_indexed()
		status, error = frappe.db.get_value("Knowledge Input", name.name, ["status", "error_message"])
		self.assertEqual(status, "Error")
		self.assertIn("127.0.0.1", error)
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "status"), "Error")
		self.assertEqual(knowledge_search("lemurclub", knowledge_source=source), [])

		# an operator may allow a named host (site config); then the page is fetched and indexed
		frappe.conf.huf_http_allowed_hosts = [f"127.0.0.1:{self.server.server_address[1]}"]
		try:
			index_input(name.name, source)
		finally:
			frappe.conf.pop("huf_http_allowed_hosts", None)
		self.assertEqual(frappe.db.get_value("Knowledge Input", name.name, "status"), "Indexed")
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "status"), "Ready")
		self.assertIn("lemurclub", knowledge_search("lemurclub", knowledge_source=source)[0]["text"])


class TestSearchPermissions(KnowledgeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(READER, "Huf User")
		make_user(OUTSIDER, "Huf Viewer")
		frappe.db.commit()

	def test_only_users_who_may_read_a_source_get_results(self):
		source = make_source("private facts")
		add_text(source, "The safe combination is kept by the manager.")
		wait_indexed()
		frappe.set_user(READER)
		self.assertEqual(len(source_actions.test_search(source, "combination")), 1)
		self.assertEqual(len(knowledge_search("combination")), 1)
		with self.assertRaises(frappe.PermissionError):
			rebuild_index(source)
		frappe.set_user(OUTSIDER)
		with self.assertRaises(frappe.PermissionError):
			knowledge_search("combination", knowledge_source=source)
		with self.assertRaises(frappe.PermissionError):
			source_actions.test_search(source, "combination")
		self.assertEqual(knowledge_search("combination"), [])

	def test_there_is_no_ignore_permissions_parameter(self):
		import inspect

		self.assertNotIn("ignore_permissions", inspect.signature(knowledge_search).parameters)

	def test_results_of_several_sources_are_merged_by_score(self):
		strong = make_source("merge strong")
		weak = make_source("merge weak")
		add_text(strong, "Solar panels and solar batteries store solar power.")
		add_text(weak, "Panels are hung in the gallery.")
		wait_indexed()
		hits = knowledge_search("solar panels", knowledge_sources=json.dumps([weak, strong]), top_k=5)
		self.assertEqual([hit["knowledge_source"] for hit in hits], [strong, weak])
		self.assertGreater(hits[0]["score"], hits[1]["score"])
		one = knowledge_search("solar panels", knowledge_sources=f"{weak}, {strong}", top_k=1)
		self.assertEqual([hit["knowledge_source"] for hit in one], [strong])
