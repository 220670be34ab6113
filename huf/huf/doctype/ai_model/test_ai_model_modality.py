"""AI Model modality and the get_models_by_modality Link query of the Agent's model fields."""

import json

import frappe

from huf.huf.doctype.ai_model.ai_model import get_models_by_modality
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_provider, make_user

READER = "modality-reader@example.com"
NOBODY = "modality-nobody@example.com"


def model(name: str, provider: str, modality: str | None = None) -> str:
	values = {"modalities": modality} if modality else {}
	doc = frappe.get_doc({"doctype": "AI Model", "model_name": name, "provider": provider, **values})
	return doc.insert(ignore_permissions=True).name


def query(txt: str = "mq-", **filters) -> list:
	return [tuple(row) for row in get_models_by_modality("AI Model", txt, "name", 0, 20, filters)]


class TestModelsByModality(HufTestCase):
	def setUp(self):
		make_provider("MQ One")
		make_provider("MQ Two")
		self.chat = model("mq-chat", "MQ One")
		model("mq-chat-two", "MQ Two", "Text")
		model("mq-whisper", "MQ One", "Transcription")
		model("mq-whisper-two", "MQ Two", "Transcription")
		model("mq-voice", "MQ One", "Text-to-Speech")

	def test_new_models_are_text_models(self):
		self.assertEqual(frappe.db.get_value("AI Model", self.chat, "modalities"), "Text")

	def test_filters_by_modality_provider_and_text(self):
		self.assertEqual(
			query(modality="Transcription"), [("mq-whisper", "MQ One"), ("mq-whisper-two", "MQ Two")]
		)
		self.assertEqual(query(modality="Transcription", provider="MQ Two"), [("mq-whisper-two", "MQ Two")])
		self.assertEqual(query(modality="Text", provider="MQ One"), [("mq-chat", "MQ One")])
		self.assertEqual(query("mq-voice", modality="Text-to-Speech"), [("mq-voice", "MQ One")])
		self.assertEqual(query("no-such", modality="Text"), [])
		# Desk sends the filters as JSON text
		rows = get_models_by_modality(
			"AI Model", "mq-", "name", 0, 1, json.dumps({"modality": "Transcription"})
		)
		self.assertEqual([tuple(r) for r in rows], [("mq-whisper", "MQ One")])

	def test_bad_filters_and_missing_read_permission_are_refused(self):
		for filters in ({}, {"modality": "Smell"}):
			with self.assertRaisesRegex(frappe.ValidationError, "Filter by modality"):
				get_models_by_modality("AI Model", "", "name", 0, 20, filters)
		make_user(READER, "Huf User")
		make_user(NOBODY)
		with self.set_user(READER):
			self.assertEqual(query(modality="Text-to-Speech"), [("mq-voice", "MQ One")])
		with self.set_user(NOBODY):
			with self.assertRaises(frappe.PermissionError):
				query(modality="Text")
