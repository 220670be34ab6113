"""The Integrations page at /huf/integrations in a real headless Chromium, against the real server.

Runs `integrations.e2e.mjs`: a System Manager adds Slack settings pointing at a scripted Slack API on
127.0.0.1, saves a bot token (never shown or answered again) and a recipient, tests the connection and
sees the channel URLs; a Huf User sees no Integrations entry. GitHub settings show only the fields GitHub uses
(no recipients, no channel); their test fails against the scripted API and the page shows the failure with the
server's message (also after a reload and on the catalog card), never "Connected"; no serious axe-core finding
in the light or the dark theme. Screenshots: $HUF_E2E_OUTPUT/integrations.
"""

from __future__ import annotations

from pathlib import Path

import frappe
from frappe.utils.password import get_decrypted_password

from huf.tests.support.browser import BrowserTestCase
from huf.tests.support.http_service import allowed_service, reply

ADMIN = "e2e-integrations-admin@example.com"
USER = "e2e-integrations-user@example.com"


def remove_records(suffix: str) -> None:
	"""The settings, custom service and users of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in frappe.get_all(
		"Integration Service", filters={"service_name": ("like", f"%{suffix}")}, pluck="name"
	):
		frappe.delete_doc("Integration Service", name, force=True, ignore_permissions=True)
	for name in frappe.get_all(
		"Integration Settings", filters={"label": ("like", f"%{suffix}")}, pluck="name"
	):
		frappe.delete_doc("Integration Settings", name, force=True, ignore_permissions=True)
	for user in (ADMIN, USER):
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestIntegrationsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("integrations.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.api = allowed_service(cls)
		cls.admin = cls.browser_user(ADMIN, "System Manager")
		cls.user = cls.browser_user(USER, "Huf User")
		cls.serve()

	def test_slack_settings_token_recipient_connection_and_channel_urls(self):
		token = f"xoxb-e2e-{frappe.generate_hash(length=16)}"
		label = f"E2E Slack {self.suffix}"
		self.api.on("GET", "/auth.test", {"ok": True, "user": "huf-bot", "team": "Acme", "user_id": "U1"})
		self.api.on("GET", "/user", reply({"message": "Bad credentials"}, status=401))
		github_label = f"E2E GitHub {self.suffix}"
		result = self.run_browser(
			admin=self.admin,
			user=self.user,
			label=label,
			api_url=self.api.url,
			token=token,
			custom_service=f"e2e_crm_{self.suffix}",
			github_label=github_label,
			github_token=f"ghp_e2e_{frappe.generate_hash(length=16)}",
		)

		self.assertEqual(result["user_nav"], 0)
		self.assertIn("Not configured", result["slack_card_before"])
		self.assertIn("Bearer Token", result["slack_card_before"])

		# stored: the settings with the token encrypted, the recipient, the base URL
		name = frappe.db.get_value("Integration Settings", {"label": label}, "name")
		doc = frappe.get_doc("Integration Settings", name)
		self.assertEqual((doc.service, doc.is_active, doc.base_url), ("slack", 1, self.api.url))
		self.assertEqual(
			[(r.recipient_name, r.recipient_id) for r in doc.recipients], [("General", "C0GENERAL")]
		)
		credential = next(row for row in doc.credentials if row.key == "bot_token")
		self.assertEqual(get_decrypted_password(credential.doctype, credential.name, "value"), token)

		# write-only in the browser: a password input, empty after saving, never in any answer
		self.assertEqual(result["token_input_type"], "password")
		self.assertEqual(result["token_after_save"], {"value": "", "placeholder": "Saved — type to replace"})
		self.assertEqual(result["recipient_after_save"], ["General", "C0GENERAL"])
		self.assertEqual(result["token_in_responses"], [])

		# the connection test called Slack's auth.test with the token, and the page shows the stored answer
		calls = [r for r in self.api.requests if r["path"] == "/auth.test"]
		self.assertEqual(len(calls), 1)
		self.assertEqual(calls[0]["headers"]["authorization"], f"Bearer {token}")
		doc.reload()
		self.assertTrue(doc.last_connection_result)
		self.assertEqual(result["test_message"], doc.last_connection_result)
		self.assertIn("huf-bot", result["test_message"])
		self.assertNotIn(token, result["test_message"])

		# the Slack Events URL to paste, with a copy button; Slack now counts as connected
		labels = [row[0] for row in result["channel_urls"]]
		self.assertIn("Slack Events request URL", labels)
		for _label, url in result["channel_urls"]:
			self.assertTrue(url.startswith("http"), url)
		self.assertEqual(result["copy_buttons"], len(result["channel_urls"]))
		self.assertIn("Connected", result["slack_card_after"])

		# a custom service: not built in, its credentials schema drives the settings form
		custom = frappe.get_doc("Integration Service", f"e2e_crm_{self.suffix}")
		self.assertEqual(
			(
				custom.is_builtin,
				custom.auth_type,
				custom.auth_header_name,
				custom.api_base_url,
				custom.test_path,
			),
			(0, "API Key Header", "X-API-Key", self.api.url, "/me"),
		)
		self.assertEqual(result["custom_credential_label"], "API key *")

		# each service shows only the fields it uses: Slack recipients and channel, GitHub neither
		self.assertEqual(result["slack_sections"], ["Credentials", "Recipients", "Who may use it", "Channel"])
		self.assertEqual(result["github_sections"], ["Credentials", "Who may use it"])

		# a failed test: the failure and the server's message, stored, after a reload, on the catalog card
		github = frappe.db.get_value(
			"Integration Settings",
			{"label": github_label},
			["last_connection_status", "last_connection_result"],
			as_dict=True,
		)
		self.assertEqual(github.last_connection_status, "Failed")
		self.assertIn("401", github.last_connection_result)
		for shown in ("github_test", "github_after_reload", "github_card"):
			self.assertIn("Connection failed", result[shown], shown)
			self.assertIn(github.last_connection_result, result[shown], shown)
			self.assertNotIn("Connected", result[shown], shown)
		self.assertIn("Test failed", result["github_record"])
		for name in ("06-github-failed", "07-catalog-failed"):
			self.assertEqual(result["axe"][name]["light"], [], name)
			self.assertEqual(result["axe"][name]["dark"], [], name)
		self.assertEqual(result["console_errors"], [])
