import frappe

from huf.tests.support.case import HufTestCase


def save_settings(doctype: str, **values) -> None:
	"""Save the Single with `values`, as the form posts it (a fresh copy each time: a failed save on
	Frappe leaves the copy's `modified` moved on, so saving that same copy again is a timestamp conflict)."""
	settings = frappe.get_single(doctype)
	settings.update(values)
	settings.save()


class TestEndpointSettings(HufTestCase):
	def test_enabled_settings_need_url_model_and_key(self):
		for doctype in ("Groq Settings", "OpenAI Settings"):
			with self.subTest(doctype):
				with self.assertRaisesRegex(frappe.ValidationError, "API URL is required"):
					save_settings(doctype, enabled=1, api_url=None)
				endpoint = {
					"enabled": 1,
					"api_url": "https://api.example.com/v1/audio/transcriptions",
					"model": "whisper-large-v3",
				}
				with self.assertRaisesRegex(frappe.ValidationError, "API Key"):
					save_settings(doctype, **endpoint, api_key=None, provider=None)
				save_settings(doctype, **endpoint, api_key="key-1")
				self.assertEqual(frappe.get_single(doctype).get_password("api_key"), "key-1")

	def test_url_must_be_http(self):
		with self.assertRaisesRegex(frappe.ValidationError, "http"):
			save_settings("Groq Settings", api_url="gopher://x")
