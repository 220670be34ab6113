"""Test fixtures for the media tools: two scripted providers, an agent, a conversation, Files.

Records are created inside each test's transaction (IntegrationTestCase rolls them back).
"""

from __future__ import annotations

import frappe

from huf.tests.support.case import HufTestCase

MAIN_PROVIDER = "Media LLM"
MAIN_KEY = "sk-media-main-7c1d9e2b"
VOICE_PROVIDER = "Voice LLM"
VOICE_KEY = "sk-media-voice-4a8f3c6d"
AGENT = "Media Agent"


class MediaTestCase(HufTestCase):
	"""`self.llm` (main provider) and `self.voice` (a second provider) are scripted servers."""

	@classmethod
	def setUpClass(cls) -> None:
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.voice = cls.enterClassContext(ScriptedLLM())

	def setUp(self) -> None:
		for server in (self.llm, self.voice):
			server.reset()
			server.media_error = None
			server.transcript = "scripted transcript"
			server.speech_audio = b"ID3scripted-audio"
			server.ocr_pages = ["# Scripted OCR page"]
		frappe.set_user("Administrator")
		self._retries = frappe.conf.get("huf_llm_retry_attempts")
		frappe.conf.huf_llm_retry_attempts = 1
		make_provider(MAIN_PROVIDER, MAIN_KEY, self.llm.api_base)
		make_provider(VOICE_PROVIDER, VOICE_KEY, self.voice.api_base)
		make_model("media-chat", MAIN_PROVIDER)
		self.agent = make_agent(AGENT, MAIN_PROVIDER, "media-chat")

	def tearDown(self) -> None:
		frappe.conf.huf_llm_retry_attempts = self._retries
		frappe.set_user("Administrator")

	def conversation(self, user: str = "Administrator", agent: str = AGENT) -> str:
		doc = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": agent, "user": user, "title": "media", "is_active": 1}
		)
		doc.insert(ignore_permissions=True)
		return doc.name

	def upload(self, name: str, content: bytes, is_private: int = 1, dt=None, dn=None):
		from huf.ai.media.common import new_file

		return new_file(name, content, dt, dn, is_private=is_private)


def make_provider(name: str, api_key: str, api_base: str) -> str:
	if frappe.db.exists("AI Provider", name):
		frappe.delete_doc("AI Provider", name, force=True, ignore_permissions=True)
	frappe.get_doc(
		{"doctype": "AI Provider", "provider_name": name, "api_key": api_key, "api_base": api_base}
	).insert(ignore_permissions=True)
	return name


def make_model(model: str, provider: str) -> str:
	if not frappe.db.exists("AI Model", model):
		frappe.get_doc({"doctype": "AI Model", "model_name": model, "provider": provider}).insert(
			ignore_permissions=True
		)
	return model


def make_agent(name: str, provider: str, model: str, **values) -> str:
	if frappe.db.exists("Agent", name):
		frappe.delete_doc("Agent", name, force=True, ignore_permissions=True)
	frappe.get_doc(
		{
			"doctype": "Agent",
			"agent_name": name,
			"provider": provider,
			"model": model,
			"instructions": "Media test agent.",
			**values,
		}
	).insert(ignore_permissions=True)
	frappe.clear_document_cache("Agent", name)
	return name
