"""get_cacheable_models: prompt caching support from LiteLLM's price list (cache-read price)."""

import frappe

from huf.huf.doctype.agent.agent import get_cacheable_models
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user

PROVIDER = "Cache Test LLM"
NOBODY = "cacheable-nobody@example.com"


class TestCacheableModels(HufTestCase):
	def setUp(self):
		frappe.get_doc(
			{"doctype": "AI Provider", "provider_name": PROVIDER, "api_base": "http://127.0.0.1:9/v1"}
		).insert(ignore_permissions=True)
		for name, modality in (
			("gpt-4o-2024-08-06", "Text"),
			("gpt-4o-mini-2024-07-18", "Text"),
			("gpt-4-0613", "Text"),
			("cache-test-whisper", "Transcription"),
		):
			frappe.get_doc(
				{"doctype": "AI Model", "model_name": name, "provider": PROVIDER, "modalities": modality}
			).insert(ignore_permissions=True)

	def test_supported_and_alternatives(self):
		self.assertEqual(
			get_cacheable_models(PROVIDER, "gpt-4-0613"),
			{"supported": False, "alternatives": ["gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18"]},
		)
		self.assertEqual(
			get_cacheable_models(PROVIDER, "gpt-4o-2024-08-06"),
			{"supported": True, "alternatives": ["gpt-4o-mini-2024-07-18"]},
		)
		self.assertEqual(get_cacheable_models(PROVIDER)["supported"], False)

	def test_refusals(self):
		with self.assertRaises(frappe.DoesNotExistError):
			get_cacheable_models("No Such Provider", "gpt-4o")
		make_user(NOBODY)
		with self.set_user(NOBODY):
			with self.assertRaises(frappe.PermissionError):
				get_cacheable_models(PROVIDER, "gpt-4-0613")
