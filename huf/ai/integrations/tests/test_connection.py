import frappe

from huf.api.integrations import test_connection as run_connection_test
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

TOKEN = "xoxb-connection-secret-77"


class TestConnection(ServiceToolTestCase):
	SERVICE = "slack"
	CREDENTIALS = {"bot_token": TOKEN}

	def test_success_is_described_and_stored(self):
		self.api.on("GET", "/auth.test", {"ok": True, "user": "huf-bot", "team": "Acme"})
		result = run_connection_test(self.settings)
		self.assertEqual(result, {"ok": True, "message": "Connected to Slack as huf-bot in workspace Acme."})
		request = self.api.requests[-1]
		self.assertEqual((request["method"], request["headers"]["authorization"]), ("GET", f"Bearer {TOKEN}"))
		stored = frappe.db.get_value(
			"Integration Settings",
			self.settings,
			["last_connection_result", "last_connection_test", "last_connection_status"],
			as_dict=True,
		)
		self.assertEqual(stored.last_connection_result, result["message"])
		self.assertEqual(stored.last_connection_status, "Connected")
		self.assertIsNotNone(stored.last_connection_test)

	def test_refused_token_is_plain_words_without_the_token(self):
		self.api.on("GET", "/auth.test", reply({"ok": False, "error": "invalid_auth"}, status=401))
		result = run_connection_test(self.settings)
		self.assertEqual(
			result, {"ok": False, "message": "Slack refused the credentials (401 invalid_auth)."}
		)
		self.assertEqual(
			frappe.db.get_value("Integration Settings", self.settings, "last_connection_status"), "Failed"
		)
		self.api.on("GET", "/auth.test", {"ok": False, "error": "token_revoked"})
		self.assertEqual(
			run_connection_test(self.settings)["message"], "Slack refused the token (token_revoked)."
		)
		self.assert_no_secret(
			result, frappe.db.get_value("Integration Settings", self.settings, "last_connection_result")
		)

	def test_needs_write_permission(self):
		email = f"conn-{frappe.generate_hash(length=8).lower()}@example.com"
		user = frappe.get_doc({"doctype": "User", "email": email, "first_name": "C", "send_welcome_email": 0})
		user.insert(ignore_permissions=True)
		user.add_roles("Huf User")
		frappe.set_user(email)
		with self.assertRaises(frappe.PermissionError):
			run_connection_test(self.settings)
		self.assertEqual(self.api.requests, [])
