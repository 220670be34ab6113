"""get_provider_settings: the '{Provider} Settings' singles the caller may read, without secrets."""

import json

import frappe

from huf.huf.doctype.ai_provider.ai_provider import get_provider_settings
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user

SECRET = "sk-settings-secret-5e1a"
READER = "provider-settings-reader@example.com"
NOBODY = "provider-settings-nobody@example.com"


class TestProviderSettings(HufTestCase):
	def setUp(self):
		if not frappe.db.exists("AI Provider", "Groq"):
			frappe.get_doc({"doctype": "AI Provider", "provider_name": "Groq"}).insert(
				ignore_permissions=True
			)
		settings = frappe.get_single("Groq Settings")
		settings.update(
			{
				"enabled": 1,
				"model": "whisper-large-v3",
				"api_url": "https://api.groq.com/openai/v1/audio/transcriptions",
				"api_key": SECRET,
			}
		)
		settings.save(ignore_permissions=True)

	def test_returns_the_values_of_the_providers_settings_without_secrets(self):
		[found] = get_provider_settings("Groq")
		self.assertEqual(found["doctype"], "Groq Settings")
		self.assertEqual((found["values"]["enabled"], found["values"]["model"]), (1, "whisper-large-v3"))
		self.assertNotIn("api_key", found["values"])
		self.assertNotIn(SECRET, json.dumps(found, default=str))

	def test_only_settings_the_caller_may_read(self):
		make_user(READER, "Huf User")  # reads AI Providers, not the System Manager's settings
		make_user(NOBODY)
		with self.set_user(READER):
			self.assertEqual(get_provider_settings("Groq"), [])
		with self.set_user(NOBODY):
			with self.assertRaises(frappe.PermissionError):
				get_provider_settings("Groq")
		with self.assertRaises(frappe.DoesNotExistError):
			get_provider_settings("No Such Provider")
