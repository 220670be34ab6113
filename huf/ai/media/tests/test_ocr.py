"""ocr_document on real Files: local extraction, LiteLLM OCR, vision, file lookup and permissions."""

import base64
import hashlib

import frappe

from huf.ai.media.ocr import ocr_document
from huf.api.media import ocr_file
from huf.tests.support.factories import make_user
from huf.tests.support.media import MediaTestCase, make_agent, make_model, make_provider
from huf.tests.support.sample_files import PNG, make_docx, make_pdf, make_pptx, make_xlsx


class TestOcrDocument(MediaTestCase):
	def test_local_extraction_of_every_office_format(self):
		files = {
			"brief.docx": (make_docx("Brief", ["Deliver on Friday."]), "# Brief\nDeliver on Friday."),
			"numbers.xlsx": (make_xlsx({"Data": [["a", 1]]}), "a\t1"),
			"deck.pptx": (make_pptx([("Hello", "World")]), "Hello\nWorld"),
			"page.html": (b"<h2>News</h2><p>Rain <i>today</i></p>", "## News\nRain today"),
			"notes.md": (b"# Notes\n- a", "# Notes\n- a"),
		}
		for name, (content, expected) in files.items():
			file_doc = self.upload(name, content)
			result = ocr_document(file_id=file_doc.name)
			self.assertTrue(result["success"], result)
			self.assertEqual((result["strategy"], result["text"]), ("local", expected), name)
			self.assertEqual(result["file_hash"], hashlib.sha256(content).hexdigest())
			self.assertEqual((result["file_id"], result["file_name"]), (file_doc.name, file_doc.file_name))

	def test_pdf_locally_with_page_selection(self):
		pdf = make_pdf(["First page", "Second page", "Third page"])
		file_doc = self.upload("scan.pdf", pdf)
		result = ocr_document(file_id=file_doc.name, pages="0,2")
		self.assertEqual(result["strategy"], "local_pdf")
		self.assertEqual([p["index"] for p in result["pages"]], [0, 2])
		self.assertEqual(result["text"], "## Page 1\n\nFirst page\n\n## Page 3\n\nThird page")
		blank = ocr_document(file_id=self.upload("blank.pdf", make_pdf([""])).name)
		self.assertTrue(blank["success"])
		self.assertIn("no text layer", blank["note"])
		# the agent's provider has no OCR endpoint: read locally, no LLM call
		via_agent = ocr_document(file_id=file_doc.name, agent=self.agent)
		self.assertEqual(via_agent["strategy"], "local_pdf")
		self.assertEqual(self.llm.requests, [])

	def test_file_url_resolves_public_and_private_paths_to_the_newest_file(self):
		content = b"shared content"
		todo = frappe.get_doc({"doctype": "ToDo", "description": "holds the older copy"}).insert()
		older = self.upload("shared.txt", content, dt="ToDo", dn=todo.name)
		newer = self.upload("shared.txt", content)
		self.assertEqual(older.file_url, newer.file_url)
		tail = newer.file_url.rsplit("/", 1)[-1]
		for url in (newer.file_url, f"/files/{tail}", f"https://example.com/private/files/{tail}"):
			result = ocr_document(file_url=url)
			self.assertEqual(result["file_id"], newer.name, url)
			self.assertEqual(result["text"], "shared content")
		missing = ocr_document(file_url="/files/nothing-here.pdf")
		self.assertFalse(missing["success"])
		self.assertIn("No file found", missing["error"])
		self.assertIn("does not exist", ocr_document(file_id="no-such-file")["error"])

	def test_unsupported_type(self):
		result = ocr_document(file_id=self.upload("tool.exe", b"MZ\x00").name)
		self.assertFalse(result["success"])
		self.assertIn("Cannot read EXE files", result["error"])

	def test_file_read_permission(self):
		private = self.upload("secret.txt", b"top secret")
		public = self.upload("open.txt", b"for everyone", is_private=0)
		make_user("ocr-user@example.com", "Huf User")
		frappe.set_user("ocr-user@example.com")
		with self.assertRaises(frappe.PermissionError):
			ocr_document(file_id=private.name)
		with self.assertRaises(frappe.PermissionError):
			ocr_file(file_url=private.file_url)
		self.assertEqual(ocr_document(file_id=public.name)["text"], "for everyone")
		own = self.upload("mine.txt", b"my notes")
		self.assertEqual(ocr_file(file_id=own.name)["text"], "my notes")

	def test_litellm_ocr_for_providers_with_an_ocr_endpoint(self):
		make_provider("Mistral", "sk-mistral-5e6f7a8b", self.llm.api_base)
		make_model("mistral-large-latest", "Mistral")
		agent = make_agent("Mistral Media Agent", "Mistral", "mistral-large-latest")
		self.llm.ocr_pages = ["# Invoice\n\n| item | qty |", "Page two"]
		pdf = make_pdf(["ignored by OCR"])
		file_doc = self.upload("invoice.pdf", pdf)

		result = ocr_document(file_id=file_doc.name, agent=agent, include_images=True)
		self.assertEqual((result["strategy"], result["model"]), ("ocr", "mistral/mistral-ocr-latest"))
		self.assertEqual(result["text"], "# Invoice\n\n| item | qty |\n\nPage two")
		self.assertEqual(len(result["pages"]), 2)
		request = self.llm.requests[-1]
		self.assertTrue(request["path"].endswith("/ocr"))
		self.assertEqual(request["body"]["model"], "mistral-ocr-latest")
		self.assertEqual(request["headers"]["authorization"], "Bearer sk-mistral-5e6f7a8b")
		sent = request["body"]["document"]["document_url"]
		self.assertEqual(base64.b64decode(sent.split(",", 1)[1]), pdf)

		selected = ocr_document(file_id=file_doc.name, agent=agent, pages="1")
		self.assertEqual(self.llm.requests[-1]["body"]["pages"], [1])
		self.assertEqual([p["index"] for p in selected["pages"]], [1])

		# the OCR endpoint fails: the PDF is read locally instead
		self.llm.media_error = (500, "ocr backend down")
		fallback = ocr_document(file_id=file_doc.name, agent=agent)
		self.assertEqual((fallback["success"], fallback["strategy"]), (True, "local_pdf"))
		self.assertEqual(fallback["text"], "ignored by OCR")
		self.assertIn("ocr backend down", fallback["ocr_error"])
		# strategy=local skips the endpoint
		self.llm.reset()
		self.assertEqual(
			ocr_document(file_id=file_doc.name, agent=agent, strategy="local")["strategy"], "local_pdf"
		)
		self.assertEqual(self.llm.requests, [])

	def test_images_go_to_the_agents_vision_model(self):
		self.llm.queue("INVOICE 42\nTotal 99")
		file_doc = self.upload("photo.png", PNG)
		result = ocr_document(file_id=file_doc.name, conversation=self.conversation())
		self.assertEqual((result["strategy"], result["text"]), ("vision", "INVOICE 42\nTotal 99"))
		self.assertEqual(result["model"], "openai/media-chat")
		content = self.llm.chat_requests[-1]["body"]["messages"][0]["content"]
		self.assertEqual(
			content[1]["image_url"]["url"], "data:image/png;base64," + base64.b64encode(PNG).decode()
		)
		without_agent = ocr_document(file_id=file_doc.name)
		self.assertFalse(without_agent["success"])
		self.assertIn("vision model", without_agent["error"])

	def test_agent_the_user_may_not_run(self):
		make_user("ocr-viewer@example.com", "Huf Viewer")
		frappe.set_user("ocr-viewer@example.com")
		own = self.upload("pic.png", PNG)
		with self.assertRaises(frappe.PermissionError):
			ocr_document(file_id=own.name, agent=self.agent)
		self.assertEqual(self.llm.requests, [])

	def test_files_attached_to_a_readable_document(self):
		make_user("ocr-owner@example.com", "Huf User")
		make_user("ocr-stranger@example.com")
		conversation = self.conversation(user="ocr-owner@example.com")
		frappe.db.set_value("Agent Conversation", conversation, "owner", "ocr-owner@example.com")
		attached = self.upload("meeting.txt", b"minutes", dt="Agent Conversation", dn=conversation)
		frappe.set_user("ocr-owner@example.com")
		self.assertEqual(ocr_document(file_id=attached.name)["text"], "minutes")
		frappe.set_user("ocr-stranger@example.com")
		with self.assertRaises(frappe.PermissionError):
			ocr_document(file_id=attached.name)
