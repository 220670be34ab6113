"""huf.api.triggers over real HTTP: list an agent's triggers, run one now, a webhook key shown once."""

import json

import frappe

from huf.tests.support.jobs import wait_until
from huf.tests.support.runs import LiveAgentTestCase

MANAGER = "trigger-api-manager@example.com"  # Huf Manager: may write triggers
READER = "trigger-api-reader@example.com"  # Huf User: may read triggers, not write them
NOBODY = "trigger-api-nobody@example.com"  # no roles
API = "/api/method/huf.api.triggers."
WEBHOOK = "/api/method/huf.api.triggers.handle_webhook"
FINISHED = ("Success", "Failed", "Cancelled")


class TestTriggerApi(LiveAgentTestCase):
	AGENT = "Trigger Api Agent"
	PROVIDER = "Trigger Api LLM"
	MODEL = "trigger-api-model"
	users = ((MANAGER, ("Huf Manager",)), (READER, ("Huf User",)), (NOBODY, ()))

	def make_trigger(self, user: str = "Administrator", **values) -> str:
		"""A committed trigger on AGENT made by `user` (unique name), deleted after the test with its runs."""
		with self.set_user(user):
			doc = frappe.get_doc(
				{
					"doctype": "Agent Trigger",
					"trigger_name": f"Api {frappe.generate_hash(length=8)}",
					"agent": self.AGENT,
					**values,
				}
			).insert()
		frappe.db.commit()
		self.addCleanup(self.delete_trigger, doc.name)
		return doc.name

	def delete_trigger(self, name: str) -> None:
		frappe.db.rollback()
		frappe.db.delete("Agent Run", {"agent_trigger": name})
		frappe.delete_doc("Agent Trigger", name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def signed_in(self, user: str):
		client = self.client(user)
		client.headers["X-Frappe-CSRF-Token"] = self.csrf_token(client)
		return client

	def finished_run(self, name: str):
		wait_until(
			lambda: frappe.db.get_value("Agent Run", name, "status") in FINISHED,
			timeout=120,
			message=f"Agent Run {name} did not finish",
		)
		return frappe.get_doc("Agent Run", name)

	def test_run_now_of_a_manual_trigger_acts_as_the_caller_who_may_write_it(self):
		trigger = self.make_trigger(
			trigger_type="Manual", metadata=json.dumps({"prompt": "Summarise the day's orders."})
		)
		self.llm.queue("Three orders today.")
		manager = self.signed_in(MANAGER)

		response = manager.post(API + "run_trigger_now", json={"trigger": trigger})

		self.assertEqual(response.status_code, 200, response.text)
		result = response.json()["message"]
		self.assertEqual((result["status"], result["user"]), ("Queued", MANAGER))
		run = self.finished_run(result["agent_run"])
		self.assertEqual((run.status, run.user, run.response), ("Success", MANAGER, "Three orders today."))
		self.assertIn("Summarise the day's orders.", run.prompt)

		refused = self.signed_in(READER).post(API + "run_trigger_now", json={"trigger": trigger})
		self.assertEqual(refused.status_code, 403, refused.text)
		as_get = manager.get(API + "run_trigger_now", params={"trigger": trigger})
		self.assertIn(as_get.status_code, (403, 405), as_get.text)
		self.assertEqual(
			frappe.get_all("Agent Run", filters={"agent_trigger": trigger}, pluck="name"), [run.name]
		)

	def test_the_list_shows_each_trigger_and_its_state_but_never_a_key(self):
		hook = self.make_trigger(trigger_type="Webhook")
		daily = self.make_trigger(trigger_type="Schedule", scheduled_interval="Daily")
		started = frappe.get_doc("Agent Trigger", daily).run_now()
		self.finished_run(started["agent_run"])
		key = frappe.utils.password.get_decrypted_password("Agent Trigger", hook, "webhook_key")

		response = self.signed_in(READER).get(API + "list_agent_triggers", params={"agent": self.AGENT})

		self.assertEqual(response.status_code, 200, response.text)
		self.assertNotIn(key, response.text)
		listed = {row["name"]: row for row in response.json()["message"]}
		slug = frappe.db.get_value("Agent Trigger", hook, "webhook_slug")
		self.assertTrue(listed[hook]["webhook_url"].startswith("http"))
		self.assertTrue(listed[hook]["webhook_url"].endswith(f"{WEBHOOK}?slug={slug}"))
		self.assertEqual((listed[hook]["last_run"], listed[hook]["failures"]), (None, 0))
		self.assertEqual(
			(listed[daily]["last_run"], listed[daily]["last_run_status"]), (started["agent_run"], "Success")
		)
		self.assertTrue(listed[daily]["next_execution"])
		self.assertIsNone(listed[daily]["webhook_url"])
		nobody = self.signed_in(NOBODY).get(API + "list_agent_triggers", params={"agent": self.AGENT})
		self.assertEqual(nobody.status_code, 403, nobody.text)

	def test_a_webhook_key_is_shown_once_and_a_new_key_replaces_the_old(self):
		trigger = self.make_trigger(MANAGER, trigger_type="Webhook")  # its runs act as MANAGER
		slug = frappe.db.get_value("Agent Trigger", trigger, "webhook_slug")
		manager = self.signed_in(MANAGER)

		shown = manager.post(API + "reveal_webhook_key", json={"trigger": trigger})
		self.assertEqual(shown.status_code, 200, shown.text)
		old_key = shown.json()["message"]["key"]
		self.assertTrue(shown.json()["message"]["webhook_url"].endswith(f"?slug={slug}"))
		again = manager.post(API + "reveal_webhook_key", json={"trigger": trigger})
		self.assertEqual(again.status_code, 403, again.text)
		self.assertIn("was already shown; generate a new key to see one.", again.text)
		self.assertNotIn(old_key, again.text)
		reader = self.signed_in(READER).post(API + "regenerate_webhook_key", json={"trigger": trigger})
		self.assertEqual(reader.status_code, 403, reader.text)

		renewed = manager.post(API + "regenerate_webhook_key", json={"trigger": trigger})
		self.assertEqual(renewed.status_code, 200, renewed.text)
		new_key = renewed.json()["message"]["key"]
		self.assertNotEqual(new_key, old_key)
		self.assertEqual(manager.post(API + "reveal_webhook_key", json={"trigger": trigger}).status_code, 403)

		call = {"slug": slug, "order": "SO-7731"}
		stale = manager.post(WEBHOOK, json=call, headers={"X-Huf-Webhook-Key": old_key})
		self.assertEqual(stale.status_code, 403, stale.text)
		url = renewed.json()["message"]["webhook_url"]  # the slug is in the URL: the body is the payload
		fresh = manager.post(url, json={"order": "SO-7731"}, headers={"X-Huf-Webhook-Key": new_key})
		self.assertEqual(fresh.status_code, 200, fresh.text)
		run = self.finished_run(fresh.json()["message"]["agent_run_id"])
		self.assertEqual((run.status, run.user), ("Success", MANAGER))

	def test_only_the_acting_user_or_a_system_manager_sees_a_key(self):
		trigger = self.make_trigger(trigger_type="Webhook")  # its runs act as Administrator
		refused = self.signed_in(MANAGER).post(API + "reveal_webhook_key", json={"trigger": trigger})
		self.assertEqual(refused.status_code, 403, refused.text)
		self.assertIn("only Administrator or a System Manager may see or replace its key", refused.text)
		self.assertEqual(frappe.db.get_value("Agent Trigger", trigger, "webhook_key_shown"), 0)

	def test_the_trigger_types_are_offered_to_those_who_may_read_triggers(self):
		path = "/api/method/huf.huf.doctype.agent_trigger.agent_trigger.get_trigger_type"
		offered = self.signed_in(READER).get(path)
		self.assertEqual(offered.status_code, 200, offered.text)
		self.assertEqual(
			offered.json()["message"], ["Schedule", "Doc Event", "Webhook", "App Event", "Manual"]
		)
		self.assertEqual(self.signed_in(NOBODY).get(path).status_code, 403)
