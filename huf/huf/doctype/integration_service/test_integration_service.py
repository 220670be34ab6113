import frappe

from huf.tests.support.case import HufTestCase


class TestIntegrationService(HufTestCase):
	def test_good_service_saves(self):
		doc = frappe.get_doc(
			{
				"doctype": "Integration Service",
				"service_name": "Acme_CRM",
				"category": "CRM",
				"required_credentials": [{"key": "bot_token", "required": 1}],
			}
		).insert()
		self.assertEqual(doc.name, "acme_crm")
		self.assertEqual(doc.credential_keys(required_only=True), ["bot_token"])

	def test_required_credentials_shape(self):
		for value, message in (
			("{bad", "valid JSON"),
			('{"key": "x"}', "list of objects"),
			('[{"key": "a"}, {"key": "a"}]', "more than once"),
		):
			with self.subTest(value), self.assertRaisesRegex(frappe.ValidationError, message):
				frappe.get_doc(
					{
						"doctype": "Integration Service",
						"service_name": "acme",
						"required_credentials": value,
					}
				).insert()

	def test_service_name_is_a_key(self):
		with self.assertRaisesRegex(frappe.ValidationError, "lowercase key"):
			frappe.get_doc({"doctype": "Integration Service", "service_name": "my service"}).insert()
