import frappe

from huf.tests.support.case import HufTestCase


class TestIntegrationSettings(HufTestCase):
	def setUp(self):
		if not frappe.db.exists("Integration Service", "telegram"):
			frappe.get_doc(
				{
					"doctype": "Integration Service",
					"service_name": "telegram",
					"required_credentials": '[{"key": "bot_token", "required": 1}, {"key": "chat", "required": 0}]',
				}
			).insert()

	def new_settings(self, **values):
		return frappe.get_doc({"doctype": "Integration Settings", "service": "telegram", **values})

	def test_named_by_service_series_and_credentials_encrypted(self):
		doc = self.new_settings(credentials=[{"key": "bot_token", "value": "123:abc"}]).insert()
		self.assertRegex(doc.name, r"^telegram-\d{4}$")
		self.assertEqual(doc.credentials[0].get_password("value"), "123:abc")

	def test_required_credentials_present(self):
		with self.assertRaisesRegex(frappe.ValidationError, "bot_token"):
			self.new_settings(credentials=[{"key": "chat", "value": "1"}]).insert()
		self.new_settings(is_active=0).insert()

	def test_one_default_per_service(self):
		first = self.new_settings(is_default=1, credentials=[{"key": "bot_token", "value": "a"}]).insert()
		self.new_settings(is_default=1, credentials=[{"key": "bot_token", "value": "b"}]).insert()
		self.assertEqual(frappe.db.get_value("Integration Settings", first.name, "is_default"), 0)

	def test_keys_unique(self):
		rows = [{"key": "bot_token", "value": "a"}, {"key": "bot_token", "value": "b"}]
		with self.assertRaisesRegex(frappe.ValidationError, "more than once"):
			self.new_settings(credentials=rows).insert()
