"""frappe.log_error: an Error Log with the traceback or message, secrets scrubbed, never raising."""

import frappe
from frappe.tests import IntegrationTestCase


class TestLogError(IntegrationTestCase):
	def test_logs_current_traceback(self):
		try:
			raise ValueError("boom in the agent loop")
		except ValueError:
			log = frappe.log_error("Agent run failed")
		self.assertEqual(log.doctype, "Error Log")
		stored = frappe.get_doc("Error Log", log.name)
		self.assertEqual(stored.method, "Agent run failed")
		self.assertIn("ValueError: boom in the agent loop", stored.error)
		self.assertIn("Traceback", stored.error)

	def test_a_traceback_carries_the_frames_variables_as_frappes_does(self):
		def failing(customer: str, api_password: str) -> None:
			raise ValueError("boom")

		try:
			failing("Acme Widgets Ltd", "kept-away-" + str(9931))
		except ValueError:
			log = frappe.log_error("Sync failed")
		error = frappe.db.get_value("Error Log", log.name, "error")
		self.assertIn("customer = 'Acme Widgets Ltd'", error)
		self.assertIn("api_password = ********", error)
		self.assertNotIn("kept-away-9931", error)

	def test_logs_message_and_reference(self):
		log = frappe.log_error(
			title="Sync failed", message="remote said 502", reference_doctype="ToDo", reference_name="x1"
		)
		stored = frappe.get_doc("Error Log", log.name)
		self.assertEqual(stored.method, "Sync failed")
		self.assertEqual(stored.error, "remote said 502")
		self.assertEqual(stored.reference_doctype, "ToDo")
		self.assertEqual(stored.reference_name, "x1")

	def test_secrets_are_scrubbed(self):
		message = "\n".join(
			[
				"Authorization: token abcdef123456:fedcba654321",
				"headers={'Authorization': 'Bearer sk-live-SECRETSECRETSECRET'}",
				'payload={"api_key": "AKIA-SECRET-KEY", "password": "hunter2hunter2"}',
				"url=https://bot:pa55w0rd@example.com/hook?api_secret=zzzsecretzzz",
				"openai key sk-proj-ABCDEFGHIJKLMNOPQRSTUV used",
			]
		)
		log = frappe.log_error("Provider call failed", message)
		error = frappe.db.get_value("Error Log", log.name, "error")
		for secret in (
			"abcdef123456",
			"fedcba654321",
			"SECRETSECRETSECRET",
			"AKIA-SECRET-KEY",
			"hunter2hunter2",
			"pa55w0rd",
			"zzzsecretzzz",
			"ABCDEFGHIJKLMNOPQRSTUV",
		):
			self.assertNotIn(secret, error)
		self.assertIn("Authorization", error)
		self.assertIn("example.com", error)

	def test_never_raises(self):
		class Unprintable:
			def __str__(self):
				raise RuntimeError("cannot print")

		self.assertIsNone(frappe.log_error(Unprintable(), Unprintable()))

	def test_old_call_style_with_traceback_first(self):
		log = frappe.log_error("Traceback (most recent call last):\n  boom", "Old style title")
		stored = frappe.get_doc("Error Log", log.name)
		self.assertEqual(stored.method, "Old style title")
		self.assertIn("boom", stored.error)

	def test_default_title(self):
		log = frappe.log_error(message="something odd")
		self.assertEqual(frappe.db.get_value("Error Log", log.name, "method"), "Error")
