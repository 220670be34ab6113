import frappe

from huf.tests.support.case import HufTestCase


def new_provider(name: str, **values):
	return frappe.get_doc({"doctype": "AI Provider", "provider_name": name, **values})


class TestAIProvider(HufTestCase):
	def test_named_after_provider_name(self):
		doc = new_provider("  Acme LLM ", api_base="http://127.0.0.1:11434/").insert()
		self.assertEqual(doc.name, "Acme LLM")
		self.assertEqual(doc.api_base, "http://127.0.0.1:11434")

	def test_name_unique_without_regard_to_case(self):
		new_provider("OpenAI Test").insert()
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already exists"):
			new_provider("openai test").insert()

	def test_api_base_must_be_http(self):
		with self.assertRaisesRegex(frappe.ValidationError, "http"):
			new_provider("Local", api_base="ftp://example.com").insert()

	def test_api_key_is_stored_encrypted(self):
		doc = new_provider("Keyed", api_key="sk-secret-1").insert()
		self.assertNotEqual(frappe.db.get_value("AI Provider", doc.name, "api_key"), "sk-secret-1")
		self.assertEqual(doc.get_password("api_key"), "sk-secret-1")
