"""Voice messages, file uploads and markdown of the chat endpoints, with the scripted LLM (chat and STT)."""

import base64

import frappe

from huf.ai import agent_chat
from huf.ai.media.uploads import UploadTooLargeError
from huf.tests.support import sample_files
from huf.tests.support.config import set_site_config
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import LiveAgentTestCase

ALICE = "upload-alice@example.com"
BOB = "upload-bob@example.com"
VIEWER = "upload-viewer@example.com"
AGENT = "Upload Test Agent"
WEBM = b"\x1a\x45\xdf\xa3" + b"\x00" * 60  # the EBML header of a WebM recording
MP3 = b"ID3\x04\x00" + b"\x00" * 40


def b64(content: bytes) -> str:
	return base64.b64encode(content).decode()


class TestChatUploads(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Upload Test LLM"
	MODEL = "upload-scripted-model"
	users = ((ALICE, ("Huf User",)), (BOB, ("Huf User",)), (VIEWER, ("Huf Viewer",)))

	def setUp(self):
		super().setUp()
		self.llm.transcript = "what is the weather in Pune"
		self.addCleanup(self.delete_files)

	def delete_files(self):
		frappe.db.rollback()
		for name in frappe.get_all("File", filters={"file_name": ("like", "upl-%")}, pluck="name"):
			frappe.delete_doc("File", name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def transcriptions(self) -> list[dict]:
		return [r for r in self.llm.requests if r["path"].endswith("/audio/transcriptions")]

	def files(self) -> list:
		return frappe.get_all(
			"File",
			filters={"file_name": ("like", "upl-%")},
			fields=["name", "file_name", "is_private", "owner", "attached_to_doctype", "attached_to_name"],
		)

	# --- voice ------------------------------------------------------------------------------------

	def test_transcribe_only_returns_the_text_and_keeps_the_recording_private(self):
		with self.set_user(ALICE):
			result = agent_chat.upload_audio_and_transcribe_web(
				"upl-voice.webm", b64(WEBM), AGENT, transcribe_only=1
			)
		self.assertEqual(result["transcript"], "what is the weather in Pune")
		self.assertNotIn("run", result)
		self.assertIsNone(result["conversation_id"])
		self.assertTrue(result["file_url"].startswith("/private/files/"))
		body = self.transcriptions()[0]["body"]
		self.assertEqual(
			(body["model"], body["file"]["filename"], body["file"]["size"]),
			("whisper-1", "upl-voice.webm", 64),
		)
		self.assertEqual(self.llm.chat_requests, [])  # nothing was asked
		[file] = self.files()
		self.assertEqual((file.is_private, file.owner, file.attached_to_doctype), (1, ALICE, None))

	def test_the_transcript_is_sent_to_the_agent_in_a_new_conversation(self):
		self.llm.queue(Reply(content="Sunny and 31 degrees."))
		with self.set_user(ALICE):
			result = agent_chat.upload_audio_and_transcribe_web("upl-ask.mp3", b64(MP3), AGENT)
			history = agent_chat.get_history(result["conversation_id"])
		self.assertEqual(result["run"]["response"], "Sunny and 31 degrees.")
		self.assertEqual(result["run"]["conversation_id"], result["conversation_id"])
		self.assertEqual(
			[(m.role, m.content) for m in history],
			[("user", "what is the weather in Pune"), ("agent", "Sunny and 31 degrees.")],
		)
		sent = self.llm.chat_requests[-1]["body"]["messages"]
		self.assertEqual(sent[-1], {"role": "user", "content": "what is the weather in Pune"})
		[file] = self.files()
		self.assertEqual(
			(file.is_private, file.attached_to_doctype, file.attached_to_name),
			(1, "Agent Conversation", result["conversation_id"]),
		)

	def test_recordings_into_anothers_conversation_are_refused(self):
		self.llm.queue(Reply(content="Hello Alice"))
		with self.set_user(ALICE):
			conversation = agent_chat.new_conversation(AGENT, "Hi")["conversation_id"]
		self.llm.reset()
		with self.set_user(BOB):
			with self.assertRaisesRegex(frappe.PermissionError, "not found or access denied"):
				agent_chat.upload_audio_and_transcribe_web("upl-x.webm", b64(WEBM), AGENT, conversation)
		with self.set_user(VIEWER):  # viewers may not run agents
			with self.assertRaises(frappe.PermissionError):
				agent_chat.upload_audio_and_transcribe_web("upl-y.webm", b64(WEBM), AGENT, transcribe_only=1)
		self.assertEqual((self.llm.requests, self.files()), ([], []))

	def test_bad_recordings_get_clear_errors(self):
		cases = [
			("upl-a.webm", "not base64!", "not valid base64"),
			("upl-b.webm", "", "as base64"),
			("upl-c.txt", b64(b"just text"), "is not an audio file"),
			("upl-d.mp3", b64(b"<html><script>alert(1)</script></html>"), "not a recognised audio format"),
			("", b64(WEBM), "Name the file"),
		]
		with self.set_user(ALICE):
			for filename, data, message in cases:
				with self.assertRaisesRegex(frappe.ValidationError, message):
					agent_chat.upload_audio_and_transcribe_web(filename, data, AGENT, transcribe_only=1)
			set_site_config("max_file_size", 1000)
			self.addCleanup(set_site_config, "max_file_size", None)
			with self.assertRaisesRegex(UploadTooLargeError, "larger than"):
				agent_chat.upload_audio_and_transcribe_web(
					"upl-e.webm", b64(WEBM + b"\x00" * 1000), AGENT, transcribe_only=1
				)
		self.assertEqual(UploadTooLargeError.http_status_code, 413)
		self.assertEqual((self.transcriptions(), self.files()), ([], []))

	def test_a_failing_transcription_is_reported_and_nothing_is_kept(self):
		self.llm.media_error = (400, "the speech service is down")
		self.addCleanup(setattr, self.llm, "media_error", None)
		with self.set_user(ALICE):
			with self.assertRaisesRegex(frappe.ValidationError, "speech service is down"):
				agent_chat.upload_audio_and_transcribe_web("upl-f.webm", b64(WEBM), AGENT)
		self.assertEqual((self.llm.chat_requests, self.files()), ([], []))

	def test_agent_chat_document_sends_the_transcript_and_remembers_the_conversation(self):
		chat = frappe.get_doc({"doctype": "Agent Chat", "agent": AGENT}).insert()
		frappe.db.commit()
		self.addCleanup(frappe.delete_doc, "Agent Chat", chat.name, force=True, ignore_permissions=True)
		self.llm.queue(Reply(content="Pune is sunny."))
		result = agent_chat.upload_audio_and_transcribe("upl-chat.webm", b64(WEBM), chat.name)
		self.assertEqual(
			(result["transcript"], result["run"]["response"]),
			("what is the weather in Pune", "Pune is sunny."),
		)
		self.assertEqual(
			frappe.db.get_value("Agent Chat", chat.name, "conversation"), result["conversation_id"]
		)
		with self.set_user(ALICE):  # Agent Chat documents are for System Managers
			with self.assertRaises(frappe.PermissionError):
				agent_chat.upload_audio_and_transcribe("upl-chat2.webm", b64(WEBM), chat.name)
		with self.assertRaisesRegex(frappe.ValidationError, "belongs to agent"):
			agent_chat.upload_audio_and_transcribe("upl-chat3.webm", b64(WEBM), chat.name, agent="Other")

	# --- files ------------------------------------------------------------------------------------

	def test_an_uploaded_file_is_saved_privately_and_the_agent_runs_with_it(self):
		self.llm.queue(Reply(content="The file mentions pineapples."))
		with self.set_user(ALICE):
			result = agent_chat.upload_file_and_process(
				None, "upl-notes.txt", b64(b"The secret word is pineapple."), AGENT
			)
		self.assertTrue(result["success"], result)
		self.assertEqual(result["run"]["response"], "The file mentions pineapples.")
		files = self.files()  # Frappe also attaches a copy to the message (its Attach field)
		[file] = [f for f in files if f.attached_to_doctype == "Agent Conversation"]
		self.assertEqual(
			(file.is_private, file.owner, file.attached_to_name), (1, ALICE, result["conversation_id"])
		)
		self.assertEqual({f.is_private for f in files}, {1})
		message = frappe.get_all(
			"Agent Message",
			filters={"conversation": result["conversation_id"], "role": "user"},
			fields=["content", "attachment"],
		)[0]
		self.assertIn("upl-notes.txt", message.content)
		self.assertEqual(message.attachment, result["file_url"])
		sent = self.llm.chat_requests[-1]["body"]["messages"][-1]["content"]
		self.assertIn("upl-notes.txt", sent)
		self.assertIn("The secret word is pineapple.", sent)  # the model reads the file, not its path
		self.assertNotIn("pineapple", message.content)  # the conversation keeps only the name

	def test_an_uploaded_image_reaches_the_model_as_an_image(self):
		self.llm.queue(Reply(content="A tiny picture."))
		with self.set_user(ALICE):
			result = agent_chat.upload_file_and_process(None, "upl-photo.png", b64(sample_files.PNG), AGENT)
		self.assertEqual(result["run"]["response"], "A tiny picture.")
		parts = self.llm.chat_requests[-1]["body"]["messages"][-1]["content"]
		self.assertEqual(parts[0]["type"], "text")
		self.assertEqual(parts[1]["type"], "image_url")
		self.assertEqual(parts[1]["image_url"]["url"], "data:image/png;base64," + b64(sample_files.PNG))

	def test_file_uploads_refuse_unsafe_types_and_other_peoples_conversations(self):
		self.llm.queue(Reply(content="Hi Alice"))
		with self.set_user(ALICE):
			conversation = agent_chat.new_conversation(AGENT, "Hi")["conversation_id"]
			with self.assertRaisesRegex(frappe.ValidationError, "cannot be processed"):
				agent_chat.upload_file_and_process(None, "upl-page.html", b64(b"<script>x</script>"), AGENT)
			with self.assertRaisesRegex(frappe.ValidationError, "not valid base64"):
				agent_chat.upload_file_and_process(None, "upl-n.txt", "%%%", AGENT)
		self.llm.reset()
		with self.set_user(BOB):
			with self.assertRaises(frappe.PermissionError):
				agent_chat.upload_file_and_process(None, "upl-m.txt", b64(b"hi"), AGENT, conversation)
			with self.assertRaises(frappe.DoesNotExistError):
				agent_chat.upload_file_and_process("no-such-chat", "upl-o.txt", b64(b"hi"), AGENT)
		self.assertEqual((self.llm.requests, self.files()), ([], []))

	# --- markdown ---------------------------------------------------------------------------------

	def test_render_markdown_is_sanitised(self):
		source = (
			"# Title\n\nSome **bold** text and a [link](https://example.com).\n\n"
			'<script>alert("x")</script>\n\n<img src="x.png" onerror="alert(1)">\n\n'
			'[click](javascript:alert(1)) <a href="javascript:alert(2)" onclick="alert(3)">me</a>'
		)
		with self.set_user(ALICE):
			html = agent_chat.render_markdown(source)
		self.assertIn('<h1 id="title">Title</h1>', html)
		self.assertIn("<strong>bold</strong>", html)
		self.assertIn('href="https://example.com"', html)
		self.assertIn('src="x.png"', html)
		for unsafe in ("<script", "onerror", "onclick", "javascript:"):
			self.assertNotIn(unsafe, html)
		client = self.client(ALICE)
		response = client.get("/api/method/huf.ai.agent_chat.render_markdown", params={"content": "*hi*"})
		self.assertEqual(response.json()["message"].strip(), "<p><em>hi</em></p>")
		self.assertEqual(self.client().get("/api/method/huf.ai.agent_chat.render_markdown").status_code, 403)
