"""Speech to Text tools and the built-in media tools (sdk_tools handlers) through the agent loop."""

import base64

import frappe

from huf.ai.media.common import new_file
from huf.tests.support.runs import MODEL
from huf.tests.support.tools import ToolTestCase

USER = "tool-media-user@example.com"
OTHER = "tool-media-other@example.com"


class TestMediaTools(ToolTestCase):
	users = ((USER, ("Huf User",)), (OTHER, ("Huf User",)))

	def setUp(self):
		super().setUp()
		self.llm.transcript = "please call me back"
		self.make_tool("listen", "Speech to Text", tool_type="Built-in")
		self.agent = self.make_tool_agent(
			"Tool Media Agent", "listen", "ocr_document", "generate_image", stt_model=MODEL
		)
		self.files = []

	def tearDown(self):
		for name in self.files:
			frappe.delete_doc("File", name, force=True, ignore_permissions=True)
		frappe.db.commit()
		super().tearDown()

	def upload(self, name: str, content: bytes, owner: str) -> str:
		frappe.set_user(owner)
		try:
			doc = new_file(name, content)
		finally:
			frappe.set_user("Administrator")
		frappe.db.commit()
		self.files.append(doc.name)
		return doc.name

	def test_speech_to_text_transcribes_the_users_audio(self):
		audio = self.upload("voice-note.mp3", b"ID3 fake audio", USER)
		out = self.call_tool(self.agent, "listen", {"file_id": audio}, USER)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertEqual(out["data"]["text"], "please call me back")
		self.assertTrue(any(r["path"].endswith("/audio/transcriptions") for r in self.llm.requests))

	def test_speech_to_text_of_another_users_file_is_denied(self):
		audio = self.upload("secret-note.mp3", b"ID3 secret audio", OTHER)
		out = self.call_tool(self.agent, "listen", {"file_id": audio}, USER)
		self.assertEqual(out["record"].status, "Failed")
		self.assertIn("Permission denied in listen", out["content"])
		self.assertFalse(any(r["path"].endswith("/audio/transcriptions") for r in self.llm.requests))

	def test_the_built_in_ocr_tool_reads_a_text_file(self):
		note = self.upload("minutes.txt", b"Minutes: ship on Friday.", USER)
		out = self.call_tool(self.agent, "ocr_document", {"file_id": note, "include_images": "false"}, USER)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertTrue(out["data"]["success"], out["data"])
		self.assertIn("ship on Friday", out["data"]["text"])

	def test_the_built_in_image_tool_returns_data_and_a_private_file(self):
		out = self.call_tool(self.agent, "generate_image", {"prompt": "a red bicycle", "n": "1"}, USER)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertTrue(out["data"]["success"], out["data"])
		files = frappe.get_all(
			"File",
			filters={
				"attached_to_doctype": "Agent Conversation",
				"attached_to_name": out["run"]["conversation_id"],
			},
			fields=["name", "is_private"],
		)
		self.files.extend(f.name for f in files)
		self.assertEqual(len(files), 1)
		self.assertTrue(files[0].is_private)
		# the stored file holds exactly the bytes the image endpoint sent
		with open(frappe.get_doc("File", files[0].name).get_full_path(), "rb") as f:
			self.assertEqual(f.read(), base64.b64decode(self.llm.image_b64))
