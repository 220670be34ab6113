import frappe

from huf.tests.support.case import HufTestCase


class TestEndpointSettings(HufTestCase):
	def test_enabled_settings_need_url_model_and_key(self):
		for doctype in ("Groq Settings", "OpenAI Settings"):
			settings = frappe.get_single(doctype)
			settings.enabled = 1
			with self.subTest(doctype), self.assertRaisesRegex(frappe.ValidationError, "API URL is required"):
				settings.save()
			settings.api_url = "https://api.example.com/v1/audio/transcriptions"
			settings.model = "whisper-large-v3"
			with self.assertRaisesRegex(frappe.ValidationError, "API Key"):
				settings.save()
			settings.api_key = "key-1"
			settings.save()
			self.assertEqual(frappe.get_single(doctype).get_password("api_key"), "key-1")

	def test_url_must_be_http(self):
		settings = frappe.get_single("Groq Settings")
		settings.api_url = "gopher://x"
		with self.assertRaisesRegex(frappe.ValidationError, "http"):
			settings.save()
