"""generate_image, generate_audio and speech to text against the scripted provider endpoints."""

import base64

import frappe

from huf.ai.media.audio import generate_audio
from huf.ai.media.image import generate_image
from huf.ai.providers import ProviderError
from huf.ai.speech_to_text import speech_to_text, transcribe_audio
from huf.tests.support.factories import make_user
from huf.tests.support.media import AGENT, MAIN_KEY, VOICE_KEY, VOICE_PROVIDER, MediaTestCase, make_model


def read(file_url: str) -> bytes:
	name = frappe.db.get_value("File", {"file_url": file_url}, "name")
	with open(frappe.get_doc("File", name).get_full_path(), "rb") as f:
		return f.read()


class TestGenerateImage(MediaTestCase):
	def test_images_are_private_files_of_the_conversation(self):
		conversation = self.conversation()
		result = generate_image(prompt="a red bicycle", n=2, size="512x512", conversation=conversation)
		self.assertTrue(result["success"], result)
		self.assertEqual(result["model"], "openai/dall-e-3")
		self.assertEqual(len(result["images"]), 2)
		for image in result["images"]:
			file_doc = frappe.get_doc("File", image["file_id"])
			self.assertEqual(file_doc.is_private, 1)
			self.assertEqual(
				(file_doc.attached_to_doctype, file_doc.attached_to_name),
				("Agent Conversation", conversation),
			)
			self.assertTrue(
				file_doc.file_url.startswith("/private/files/") and file_doc.file_url.endswith(".png")
			)
			self.assertEqual(read(file_doc.file_url), base64.b64decode(self.llm.image_b64))  # as sent
			self.assertEqual(image["revised_prompt"], "a red bicycle")
		self.assertIn("![", result["markdown"])
		request = self.llm.requests[-1]
		self.assertTrue(request["path"].endswith("/images/generations"))
		self.assertEqual(
			(request["body"]["prompt"], request["body"]["n"], request["body"]["size"]),
			("a red bicycle", 2, "512x512"),
		)
		self.assertEqual(request["headers"]["authorization"], f"Bearer {MAIN_KEY}")

	def test_errors(self):
		self.assertIn("prompt", generate_image(prompt=" ", agent=AGENT)["error"])
		self.assertIn("No image model", generate_image(prompt="x")["error"])  # no agent, no model
		self.llm.media_error = (400, "Your prompt was rejected by the safety system")
		with self.assertRaises(ProviderError) as caught:
			generate_image(prompt="x", agent=AGENT)
		self.assertIn("safety system", str(caught.exception))
		self.assertNotIn(MAIN_KEY, str(caught.exception))

	def test_other_users_conversation_is_refused(self):
		conversation = self.conversation()
		make_user("media-user@example.com", "Huf User")
		frappe.set_user("media-user@example.com")
		with self.assertRaises(frappe.PermissionError):
			generate_image(prompt="x", conversation=conversation)
		self.assertEqual(self.llm.requests, [])


class TestGenerateAudio(MediaTestCase):
	def speech_request(self, server):
		return [r for r in server.requests if r["path"].endswith("/audio/speech")][-1]

	def test_default_model_and_voice_of_the_main_provider(self):
		conversation = self.conversation()
		result = generate_audio(input="Hello there", conversation=conversation)
		self.assertTrue(result["success"], result)
		self.assertEqual(
			(result["model"], result["voice"], result["format"]), ("openai/tts-1", "alloy", "mp3")
		)
		file_doc = frappe.get_doc("File", result["file_id"])
		self.assertEqual((file_doc.is_private, file_doc.attached_to_name), (1, conversation))
		self.assertTrue(file_doc.file_url.endswith(".mp3"))
		self.assertEqual(read(file_doc.file_url), self.llm.speech_audio)
		body = self.speech_request(self.llm)["body"]
		self.assertEqual((body["model"], body["input"], body["voice"]), ("tts-1", "Hello there", "alloy"))

	def test_agent_tts_model_uses_its_own_provider_and_key(self):
		make_model("voice-model", VOICE_PROVIDER)
		frappe.db.set_value("Agent", AGENT, {"tts_model": "voice-model", "tts_voice": "nova"})
		frappe.clear_document_cache("Agent", AGENT)
		result = generate_audio(input="Cross provider", agent=AGENT, speed=1.5, response_format="wav")
		self.assertEqual(
			(result["model"], result["provider"], result["voice"]),
			("openai/voice-model", VOICE_PROVIDER, "nova"),
		)
		request = self.speech_request(self.voice)
		self.assertEqual(request["headers"]["authorization"], f"Bearer {VOICE_KEY}")
		self.assertEqual((request["body"]["speed"], request["body"]["response_format"]), (1.5, "wav"))
		self.assertEqual([r for r in self.llm.requests if r["path"].endswith("/audio/speech")], [])
		# a model passed to the call wins, on the main provider; the call's voice beats the agent's
		override = generate_audio(input="Param", agent=AGENT, model="tts-1-hd", voice="echo")
		self.assertEqual((override["model"], override["voice"]), ("openai/tts-1-hd", "echo"))
		self.assertEqual(self.speech_request(self.llm)["headers"]["authorization"], f"Bearer {MAIN_KEY}")

	def test_validation(self):
		self.assertIn("input", generate_audio(input="", agent=AGENT)["error"])
		self.assertIn("speed", generate_audio(input="x", agent=AGENT, speed=9)["error"])
		self.assertIn(
			"response_format", generate_audio(input="x", agent=AGENT, response_format="midi")["error"]
		)
		self.assertIn("No speech model", generate_audio(input="x")["error"])
		self.assertEqual(self.llm.requests, [])


class TestSpeechToText(MediaTestCase):
	def transcription_request(self, server):
		return [r for r in server.requests if r["path"].endswith("/audio/transcriptions")][-1]

	def test_three_tier_model_resolution(self):
		audio = self.upload("voice.mp3", b"ID3 fake audio bytes")
		self.llm.transcript = "hello from the main provider"
		default = speech_to_text(file_id=audio.name, agent=AGENT, language="en")
		self.assertEqual(
			(default["success"], default["text"], default["model"]),
			(True, "hello from the main provider", "openai/whisper-1"),
		)
		self.assertEqual(default["audio_file_url"], audio.file_url)
		body = self.transcription_request(self.llm)["body"]
		self.assertEqual((body["model"], body["language"]), ("whisper-1", "en"))
		self.assertEqual((body["file"]["filename"], body["file"]["size"]), (audio.file_name, 20))

		make_model("stt-voice", VOICE_PROVIDER)
		frappe.db.set_value("Agent", AGENT, "stt_model", "stt-voice")
		frappe.clear_document_cache("Agent", AGENT)
		self.voice.transcript = "from the STT model's provider"
		agent_tier = speech_to_text(audio_file_url=audio.file_url, agent=AGENT)
		self.assertEqual(
			(agent_tier["text"], agent_tier["model"]), ("from the STT model's provider", "openai/stt-voice")
		)
		self.assertEqual(
			self.transcription_request(self.voice)["headers"]["authorization"], f"Bearer {VOICE_KEY}"
		)

		param = speech_to_text(file_id=audio.name, agent=AGENT, model="whisper-large")
		self.assertEqual(param["model"], "openai/whisper-large")
		self.assertEqual(self.transcription_request(self.llm)["body"]["model"], "whisper-large")

	def test_settings_without_an_agent(self):
		audio = self.upload("note.wav", b"RIFF fake")
		self.assertIn("not configured", speech_to_text(file_id=audio.name)["error"])
		settings = frappe.get_doc("Groq Settings")
		settings.update(
			{
				"enabled": 1,
				"provider": VOICE_PROVIDER,
				"model": "whisper-large-v3",
				"api_url": self.voice.api_base + "/audio/transcriptions",
			}
		)
		settings.save(ignore_permissions=True)
		frappe.clear_document_cache("Groq Settings")
		result = transcribe_audio(audio_file_url=audio.file_url, language="de")
		self.assertEqual(
			(result["text"], result["language"], result["model"]),
			("scripted transcript", "de", "openai/whisper-large-v3"),
		)
		self.assertEqual(
			self.transcription_request(self.voice)["headers"]["authorization"], f"Bearer {VOICE_KEY}"
		)

	def test_transcribe_audio_permissions(self):
		audio = self.upload("private.mp3", b"ID3 private")
		frappe.set_user("Guest")
		with self.assertRaises(frappe.PermissionError):
			transcribe_audio(audio_file_url=audio.file_url, agent=AGENT)
		make_user("stt-nobody@example.com")
		frappe.set_user("stt-nobody@example.com")
		with self.assertRaises(frappe.PermissionError):
			transcribe_audio(audio_file_url=audio.file_url)
		make_user("stt-user@example.com", "Huf User")
		frappe.set_user("stt-user@example.com")
		with self.assertRaises(frappe.PermissionError):  # Administrator's private file
			transcribe_audio(audio_file_url=audio.file_url, agent=AGENT)
		own = self.upload("mine.mp3", b"ID3 mine")
		result = transcribe_audio(audio_file_url=own.file_url, agent=AGENT)
		self.assertEqual(result["text"], "scripted transcript")
		self.assertEqual(
			len([r for r in self.llm.requests if r["path"].endswith("/audio/transcriptions")]), 1
		)

	def test_remote_audio_urls_are_fetched_safely(self):
		for url in (
			"http://169.254.169.254/latest/audio.mp3",
			"http://localhost:1/a.mp3",
			"http://10.1.1.1/a.mp3",
		):
			result = speech_to_text(audio_file_url=url, agent=AGENT)
			self.assertFalse(result["success"], url)
			self.assertIn("public internet hosts", result["error"])
		self.assertEqual(self.llm.requests, [])
