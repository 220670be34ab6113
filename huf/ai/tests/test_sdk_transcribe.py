"""sdk_tools.handle_transcribe_audio: upstream's arguments, file and conversation access, files stay private."""

import frappe

from huf.ai.sdk_tools import handle_transcribe_audio
from huf.tests.support.factories import make_user
from huf.tests.support.media import AGENT, MediaTestCase, make_model

USER = "sdk-stt-user@example.com"
OTHER = "sdk-stt-other@example.com"


class TestHandleTranscribeAudio(MediaTestCase):
	def transcriptions(self, server) -> list[dict]:
		return [r for r in server.requests if r["path"].endswith("/audio/transcriptions")]

	def test_transcribes_by_file_id_or_url_with_the_conversations_agent(self):
		audio = self.upload("sdk-voice.mp3", b"ID3 sdk audio")
		make_model("sdk-stt", "Voice LLM")
		frappe.db.set_value("Agent", AGENT, "stt_model", "sdk-stt")
		frappe.clear_document_cache("Agent", AGENT)
		conversation = self.conversation()
		result = handle_transcribe_audio(file_url=audio.file_url, conversation_id=conversation, language="de")
		self.assertEqual((result["success"], result["text"]), (True, "scripted transcript"))
		body = self.transcriptions(self.voice)[0]["body"]  # the agent's STT model, on its own provider
		self.assertEqual((body["model"], body["language"]), ("sdk-stt", "de"))
		by_id = handle_transcribe_audio(file_id=audio.name, agent_name=AGENT, model="whisper-large")
		self.assertEqual(by_id["model"], "openai/whisper-large")
		self.assertEqual(frappe.db.get_value("File", audio.name, "is_private"), 1)  # upstream made it public

	def test_refuses_files_conversations_and_agents_the_caller_may_not_use(self):
		audio = self.upload("sdk-private.mp3", b"ID3 private")  # Administrator's private file
		conversation = self.conversation()
		make_user(USER, "Huf User")
		make_user(OTHER)
		with self.set_user(USER):
			with self.assertRaises(frappe.PermissionError):
				handle_transcribe_audio(file_id=audio.name, agent_name=AGENT)
			with self.assertRaisesRegex(frappe.PermissionError, "access denied"):
				handle_transcribe_audio(file_id=audio.name, conversation_id=conversation)
		with self.set_user(OTHER):  # no Huf role: may not spend the provider's credits
			own = self.upload("sdk-own.mp3", b"ID3 own")
			with self.assertRaises(frappe.PermissionError):
				handle_transcribe_audio(file_id=own.name)
		with self.set_user("Guest"):
			with self.assertRaises(frappe.PermissionError):
				handle_transcribe_audio(file_id=audio.name, agent_name=AGENT)
		self.assertEqual(self.transcriptions(self.llm) + self.transcriptions(self.voice), [])
