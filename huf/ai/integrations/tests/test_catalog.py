import json

import frappe

from huf.ai.integrations.catalog import SERVICES, seed_services
from huf.tests.support.case import HufTestCase


class TestCatalog(HufTestCase):
	def test_seeding_is_idempotent_and_restores_the_builtins(self):
		frappe.db.set_value("Integration Service", "slack", "api_base_url", "https://example.com/x")
		seed_services()
		seed_services()
		self.assertEqual(frappe.db.count("Integration Service", {"is_builtin": 1}), len(SERVICES))
		slack = frappe.get_doc("Integration Service", "slack")
		self.assertEqual(
			(slack.api_base_url, slack.auth_type, slack.test_path),
			("https://slack.com/api", "Bearer Token", "/auth.test"),
		)
		slack_credentials = {c["key"]: c["required"] for c in json.loads(slack.required_credentials)}
		self.assertEqual(slack_credentials, {"bot_token": True, "user_token": False})
		discord = frappe.get_doc("Integration Service", "discord")
		self.assertEqual(
			(discord.auth_type, discord.api_base_url, discord.test_path),
			("Bot Token", "https://discord.com/api/v10", "/users/@me"),
		)
		maps = frappe.get_doc("Integration Service", "google_maps")
		self.assertEqual((maps.auth_type, maps.auth_header_name), ("API Key Header", "X-Goog-Api-Key"))
		calendar = frappe.get_doc("Integration Service", "google_calendar")
		self.assertEqual(
			(calendar.api_base_url, calendar.test_path),
			("https://www.googleapis.com", "/calendar/v3/users/me/calendarList?maxResults=1"),
		)
		telegram = frappe.get_doc("Integration Service", "telegram")
		self.assertEqual((telegram.auth_type, telegram.test_path), ("Bot Token in URL", "/getMe"))
		gmail = frappe.get_doc("Integration Service", "gmail")
		self.assertEqual(gmail.oauth_token_url, "https://oauth2.googleapis.com/token")
		self.assertIn("gmail", gmail.oauth_scopes)
		notion = frappe.get_doc("Integration Service", "notion")
		self.assertEqual(json.loads(notion.default_headers), {"Notion-Version": "2022-06-28"})

	def test_builtin_services_cannot_be_deleted_custom_ones_can(self):
		with self.assertRaisesRegex(frappe.ValidationError, "built-in service and cannot be deleted"):
			frappe.delete_doc("Integration Service", "github")
		self.assertTrue(frappe.db.exists("Integration Service", "github"))
		frappe.get_doc(
			{
				"doctype": "Integration Service",
				"service_name": "acme_ops",
				"api_base_url": "https://acme.test",
			}
		).insert()
		frappe.delete_doc("Integration Service", "acme_ops")
		self.assertFalse(frappe.db.exists("Integration Service", "acme_ops"))

	def test_bad_urls_and_incomplete_oauth_are_refused(self):
		for values, message in (
			({"api_base_url": "ftp://x"}, "API Base URL must be an http"),
			({"auth_type": "OAuth 2.0"}, "OAuth 2.0 needs"),
			({"default_headers": "[1]"}, "JSON object"),
		):
			with self.subTest(message), self.assertRaisesRegex(frappe.ValidationError, message):
				frappe.get_doc(
					{"doctype": "Integration Service", "service_name": "acme_bad", **values}
				).insert()
