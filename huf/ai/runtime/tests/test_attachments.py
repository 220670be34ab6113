"""huf.ai.runtime.attachments: a run's files as model content (text with hashes, image parts, notes)."""

import hashlib

import frappe

from huf.ai.media.common import new_file
from huf.ai.runtime.attachments import HEADING, MAX_FILE_CHARS, user_content
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.sample_files import PNG, make_docx

READER = "attachments-reader@example.com"


class TestAttachments(HufTestCase):
	def upload(self, name: str, content: bytes):
		return new_file(f"{frappe.generate_hash(length=6)}-{name}", content)

	def test_documents_become_text_with_their_hash_and_the_stored_message_names_them(self):
		docx = make_docx("Brief", ["Deliver on Friday."])
		brief = self.upload("brief.docx", docx)
		table = self.upload("rows.csv", b"sku,qty\nA-1,4\n")

		content = user_content("Check these.", [brief.file_url, {"file_id": table.name}])

		self.assertIsInstance(content.model, str)  # no image: plain text
		self.assertTrue(content.model.startswith(f"Check these.\n\n## {HEADING}\n\n"))
		self.assertIn(
			f"### {brief.file_name} (Document, sha256: {hashlib.sha256(docx).hexdigest()})", content.model
		)
		self.assertIn(f"### {table.file_name} (Spreadsheet, sha256: ", content.model)
		self.assertIn("# Brief\nDeliver on Friday.", content.model)
		self.assertIn("sku,qty\nA-1,4", content.model)
		self.assertEqual(
			content.stored, f"Check these.\n\nAttached files: {brief.file_name}, {table.file_name}"
		)

	def test_an_image_is_an_image_part(self):
		photo = self.upload("photo.png", PNG)
		content = user_content("What is this?", [photo.name])
		self.assertEqual(content.model[0], {"type": "text", "text": "What is this?"})
		self.assertEqual(content.model[1]["type"], "image_url")
		self.assertTrue(content.model[1]["image_url"]["url"].startswith("data:image/png;base64,"))

	def test_long_text_is_cut_with_a_note(self):
		notes = self.upload("notes.txt", b"x" * (MAX_FILE_CHARS + 100))
		content = user_content("Read.", [notes.file_url])
		self.assertIn(
			f"[Truncated: showing {MAX_FILE_CHARS} of {MAX_FILE_CHARS + 100} characters of {notes.file_name}.]",
			content.model,
		)
		self.assertNotIn("x" * (MAX_FILE_CHARS + 1), content.model)

	def test_unreadable_missing_and_unsupported_files_get_a_readable_note(self):
		secret = self.upload("salaries.txt", b"Alice earns 9000")  # private, Administrator's
		binary = self.upload("tool.exe", b"MZ\x90\x00")
		make_user(READER, "Huf User")
		with self.set_user(READER):
			content = user_content("Read.", [secret.file_url, "/private/files/nothing-here.pdf"])
		self.assertNotIn("Alice earns", content.model)
		self.assertIn(f"File {secret.file_name} was not read: {READER} may not read it.", content.model)
		self.assertIn("File nothing-here.pdf could not be found; it was not read.", content.model)
		own = user_content("Read.", [secret.file_url, binary.name])  # as Administrator, who may read both
		self.assertIn("Alice earns 9000", own.model)
		self.assertIn(f"### {binary.file_name} (File, sha256: ", own.model)
		self.assertIn("Could not read this file: Cannot read EXE files", own.model)
