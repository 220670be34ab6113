"""get_integration_recipient: recipient names of the settings a user may use, resolved to their ids."""

import frappe

from huf.ai.integrations.services.recipient import get_integration_recipient
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user


class TestGetIntegrationRecipient(HufTestCase):
	def make_settings(self, service: str, recipients: dict, **values) -> str:
		credentials = {"slack": "bot_token", "discord": "bot_token", "telegram": "bot_token"}[service]
		return (
			frappe.get_doc(
				{
					"doctype": "Integration Settings",
					"service": service,
					"is_active": 1,
					"credentials": [{"key": credentials, "value": "token-value-123456"}],
					"recipients": [
						{"recipient_name": name, "recipient_id": id_} for name, id_ in recipients.items()
					],
					**values,
				}
			)
			.insert()
			.name
		)

	def test_a_name_is_resolved_case_insensitively(self):
		settings = self.make_settings("discord", {"Sales Team": "1098765432109876543"}, is_default=1)
		self.assertEqual(
			get_integration_recipient(service="Discord", recipient_name="  sales team "),
			{
				"found": True,
				"service": "discord",
				"settings": settings,
				"recipient_name": "Sales Team",
				"recipient_id": "1098765432109876543",
			},
		)

	def test_an_unknown_name_lists_the_names_there_are(self):
		settings = self.make_settings("slack", {"General": "C0GENERAL", "Ops": "C0OPS"}, is_default=1)
		result = get_integration_recipient(service="slack", recipient_name="Marketing")
		self.assertFalse(result["found"])
		self.assertEqual(result["available_recipients"], ["General", "Ops"])
		self.assertIn("Marketing", result["message"])
		self.assertEqual(result["settings"], settings)

	def test_named_settings_and_their_access_are_checked(self):
		self.make_settings("telegram", {"Anna": "1001"}, is_default=1)
		other = self.make_settings("telegram", {"Anna": "2002"})
		result = get_integration_recipient(service="telegram", recipient_name="Anna", settings=other)
		self.assertEqual(result["recipient_id"], "2002")
		restricted = self.make_settings(
			"telegram", {"Anna": "3003"}, allowed_roles=[{"role": "System Manager"}]
		)
		frappe.set_user(make_user(f"rcpt-{frappe.generate_hash(length=8).lower()}@example.com", "Huf User"))
		with self.assertRaises(frappe.PermissionError):
			get_integration_recipient(service="telegram", recipient_name="Anna", settings=restricted)
		self.assertEqual(
			get_integration_recipient(service="telegram", recipient_name="Anna")["recipient_id"], "1001"
		)

	def test_an_unknown_service_or_missing_arguments_are_refused(self):
		with self.assertRaisesRegex(frappe.ValidationError, "no integration service"):
			get_integration_recipient(service="fax", recipient_name="Anna")
		with self.assertRaisesRegex(frappe.ValidationError, "recipient_name is required"):
			get_integration_recipient(service="slack", recipient_name="")
