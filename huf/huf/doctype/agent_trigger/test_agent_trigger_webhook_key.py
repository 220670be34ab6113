"""Readers of a Webhook Agent Trigger (Huf Viewer, User, Manager) never see its key, over REST or through
frappe.client.get_password."""

from urllib.parse import quote

import frappe

from huf.tests.support.committed import delete_committed, unique
from huf.tests.support.role_sessions import ALICE, MANAGER, VIEWER, RoleSessionsTestCase


class TestWebhookKeys(RoleSessionsTestCase):
	def test_readers_of_a_webhook_trigger_never_see_its_key(self):
		trigger = frappe.get_doc(
			{
				"doctype": "Agent Trigger",
				"trigger_name": unique("Key Hook"),
				"agent": self.AGENT,
				"trigger_type": "Webhook",
			}
		).insert()
		key = trigger.get_password("webhook_key")
		frappe.db.commit()
		self.addCleanup(delete_committed, "Agent Trigger", trigger.name)

		for user in (VIEWER, ALICE, MANAGER):
			client = self.session(user)
			doc = client.get(f"/api/resource/Agent Trigger/{quote(trigger.name)}")
			password = client.post(
				"/api/method/frappe.client.get_password",
				json={"doctype": "Agent Trigger", "name": trigger.name, "fieldname": "webhook_key"},
			)
			self.assertEqual(doc.status_code, 200, f"{user}: {doc.text}")
			self.assertEqual(doc.json()["data"]["webhook_slug"], trigger.webhook_slug)
			self.assertNotIn(key, doc.text, user)
			self.assertEqual(password.status_code, 403, f"{user}: {password.text}")
			self.assertNotIn(key, password.text, user)
