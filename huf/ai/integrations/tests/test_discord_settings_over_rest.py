"""Discord settings over REST: an Integration Settings record of the seeded `discord` service, written only
by integration managers (System Manager); Guests, Huf Users and Huf Managers can neither create nor read
them, and nobody gets the bot token back."""

from urllib.parse import quote

import frappe

from huf.tests.support.committed import delete_committed
from huf.tests.support.role_sessions import ALICE, MANAGER, RoleSessionsTestCase

BOT_TOKEN = "MTA5ODc2NTQzMjEw.discord-rest-secret"
SETTINGS = {
	"service": "discord",
	"label": "Community bot",
	"is_active": 1,
	"credentials": [{"key": "bot_token", "value": BOT_TOKEN}],
	"recipients": [{"recipient_name": "Announcements", "recipient_id": "1098765432109876543"}],
}


class TestDiscordSettingsOverREST(RoleSessionsTestCase):
	def created(self, response) -> str:
		self.assertEqual(response.status_code, 200, response.text)
		name = response.json()["data"]["name"]
		self.addCleanup(delete_committed, "Integration Settings", name)
		return name

	def test_only_integration_managers_write_discord_settings_and_the_token_never_comes_back(self):
		guest = self.client()
		for label, client in (
			("Guest", guest),
			("Huf User", self.session(ALICE)),
			("Huf Manager", self.session(MANAGER)),
		):
			with self.subTest(label):
				response = client.post("/api/resource/Integration Settings", json=SETTINGS)
				self.assertIn(response.status_code, (401, 403), f"{label}: {response.text}")
				self.assertNotIn(BOT_TOKEN, response.text)
				listing = client.get(
					"/api/resource/Integration Settings", params={"filters": '{"service": "discord"}'}
				)
				self.assertIn(listing.status_code, (401, 403), f"{label}: {listing.text}")
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("Integration Settings", {"label": "Community bot"}))

		admin = self.client()
		admin.headers["Authorization"] = self.api_token("Administrator")
		name = self.created(admin.post("/api/resource/Integration Settings", json=SETTINGS))
		read = admin.get(f"/api/resource/Integration Settings/{quote(name)}")
		self.assertEqual(read.status_code, 200, read.text)
		self.assertEqual(read.json()["data"]["service"], "discord")
		self.assertNotIn(BOT_TOKEN, read.text)
		frappe.db.rollback()
		doc = frappe.get_doc("Integration Settings", name)
		self.assertEqual(doc.credentials[0].get_password("value"), BOT_TOKEN)

		for label, client in (("Huf User", self.session(ALICE)), ("Huf Manager", self.session(MANAGER))):
			with self.subTest(label):
				change = client.put(
					f"/api/resource/Integration Settings/{quote(name)}", json={"is_active": 0}
				)
				secret = client.post(
					"/api/method/frappe.client.get_password",
					json={
						"doctype": "Integration Credential",
						"name": doc.credentials[0].name,
						"fieldname": "value",
					},
				)
				self.assertEqual(change.status_code, 403, f"{label}: {change.text}")
				self.assertEqual(secret.status_code, 403, f"{label}: {secret.text}")
				self.assertNotIn(BOT_TOKEN, change.text + secret.text)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Integration Settings", name, "is_active"), 1)
