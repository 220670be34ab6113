"""App Event triggers: `huf.fire_app_event` runs the matching triggers' agents with the payload."""

import json

import frappe

import huf
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.triggers import TriggerTestHelpers

AGENT = "App Event Test Agent"
SAVER = "app-event-caller@example.com"  # Huf User whose code fires the event


class TestAppEvents(TriggerTestHelpers, RuntimeTestCase):
	users = ((SAVER, ("Huf User",)),)

	def setUp(self):
		super().setUp()
		self.agent = self.make_agent(AGENT)

	def app_trigger(self, event: str, **values) -> str:
		return self.make_trigger(
			**{"trigger_type": "App Event", "app_name": "huf", "event_name": event, **values}
		)

	def test_an_app_event_runs_its_triggers_with_the_payload_in_the_prompt(self):
		paid = self.app_trigger(
			"order_paid", metadata=json.dumps({"prompt": "Thank the customer of order {{ payload.order }}."})
		)
		other = self.app_trigger("order_cancelled")
		self.llm.queue("Thanks sent.")

		with self.set_user(SAVER):  # the app's code runs as some user; the run acts as the trigger's owner
			fired = huf.fire_app_event("huf", "order_paid", {"order": "SO-7731", "amount": 42})
			frappe.db.commit()

		self.assertEqual(fired, [paid])
		runs = self.runs_of(paid)
		self.assertEqual([(run.status, run.user) for run in runs], [("Success", "Administrator")], runs)
		self.assertEqual(self.runs_of(other), [])
		sent = json.dumps(self.llm.chat_requests[-1]["body"]["messages"])
		self.assertIn("Thank the customer of order SO-7731.", sent)
		self.assertIn(f"fired by {SAVER}", sent)
		self.assertIn('\\"amount\\": 42', sent)
		self.assertEqual(huf.fire_app_event("huf", "order_refunded", {}), [])

	def test_a_rolled_back_or_unserialisable_event_runs_nothing(self):
		trigger = self.app_trigger("order_paid")
		huf.fire_app_event("huf", "order_paid", {"order": "SO-1"})
		frappe.db.rollback()  # the caller's transaction failed: nothing was queued
		with self.assertRaisesRegex(frappe.ValidationError, "must be JSON-serialisable"):
			huf.fire_app_event("huf", "order_paid", {"when": object()})
		with self.assertRaisesRegex(frappe.ValidationError, "needs the app's name"):
			huf.fire_app_event("", "order_paid")
		frappe.db.commit()
		self.assertEqual(self.runs_of(trigger), [])

	def test_app_and_event_are_checked_on_save(self):
		with self.assertRaisesRegex(
			frappe.ValidationError, "no_such_app</strong> is not installed on this site"
		):
			self.app_trigger("order_paid", app_name="no_such_app")
		with self.assertRaisesRegex(frappe.ValidationError, "Event Name may contain only"):
			self.app_trigger("order paid; drop")
		with self.assertRaisesRegex(frappe.ValidationError, "App Name and Event Name are required"):
			self.app_trigger("")
