"""One-shot Schedule triggers (Scheduled Interval Once): Run At or Run In (minutes), fire once, then
disabled; who may set them over REST; the owner told when a trigger disables itself."""

import json

import frappe
from frappe.utils import add_to_date, get_datetime, now_datetime

from huf.ai.triggers.schedule import MAX_FAILURES, fire_once, run_scheduled_agents
from huf.huf.notifications import can_send_email
from huf.tests.support.factories import make_user
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.triggers import TriggerTestHelpers

AGENT = "One Shot Trigger Agent"
MANAGER = "one-shot-manager@example.com"
HUF_USER = "one-shot-user@example.com"
BOT = "one-shot-bot@example.com"


def notifications_of(user: str, name: str) -> list:
	return frappe.get_all(
		"Notification Log",
		filters={"for_user": user, "document_type": "Agent Trigger", "document_name": name},
		fields=["subject", "link", "type", "email_content"],
	)


class TestOneShotTriggers(TriggerTestHelpers, RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.agent = self.make_agent(AGENT)

	def test_run_in_minutes_becomes_run_at(self):
		before = now_datetime()
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Once", run_in_minutes=30)
		values = frappe.db.get_value(
			"Agent Trigger", trigger, ["run_at", "run_in_minutes", "next_execution"], as_dict=True
		)
		self.assertEqual(values.run_in_minutes, 0)
		self.assertGreaterEqual(get_datetime(values.run_at), add_to_date(before, minutes=30))
		self.assertLess(get_datetime(values.run_at), add_to_date(before, minutes=31))
		self.assertEqual(get_datetime(values.next_execution), get_datetime(values.run_at))

	def test_a_one_shot_needs_a_time_to_come(self):
		with self.assertRaisesRegex(frappe.ValidationError, "needs Run At"):
			self.make_trigger(trigger_type="Schedule", scheduled_interval="Once")
		with self.assertRaisesRegex(frappe.ValidationError, "has passed"):
			self.make_trigger(
				trigger_type="Schedule",
				scheduled_interval="Once",
				run_at=add_to_date(now_datetime(), hours=-2),
			)

	def test_fires_once_at_its_time_then_disables_itself(self):
		run_at = add_to_date(now_datetime(), minutes=10)
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Once", run_at=run_at)
		run_at = get_datetime(frappe.db.get_value("Agent Trigger", trigger, "run_at"))
		stale = frappe.get_doc("Agent Trigger", trigger)  # what a second worker loaded before the first fired

		run_scheduled_agents(add_to_date(run_at, minutes=-1))
		self.assertEqual(self.runs_of(trigger), [])

		late = add_to_date(run_at, minutes=3)
		run_scheduled_agents(late)
		run_scheduled_agents(late)
		run_scheduled_agents(add_to_date(run_at, days=1))
		fire_once(stale, {}, run_at, late)  # the other worker's tick, on its stale copy

		runs = self.runs_of(trigger)
		self.assertEqual([run.status for run in runs], ["Success"], runs and runs[0].error_message)
		state = frappe.db.get_value(
			"Agent Trigger",
			trigger,
			["disabled", "disabled_reason", "last_execution", "next_execution", "metadata"],
			as_dict=True,
		)
		self.assertEqual(state.disabled, 1)
		self.assertIn("Ran once at", state.disabled_reason)
		self.assertEqual(get_datetime(state.last_execution), late)
		self.assertIsNone(state.next_execution)
		self.assertEqual(get_datetime(frappe.parse_json(state.metadata)["fired_at"]), late)
		# firing is not a failure: nobody is notified
		self.assertEqual(notifications_of("Administrator", trigger), [])

	def test_the_owner_is_told_when_the_trigger_disables_itself(self):
		make_user(BOT, "Huf User")
		trigger = self.make_trigger(
			trigger_type="Schedule",
			scheduled_interval="Once",
			run_in_minutes=1,
			run_as=BOT,
		)
		frappe.db.set_value("User", BOT, "enabled", 0)
		frappe.db.commit()
		self.addCleanup(self.enable_user, BOT)

		run_scheduled_agents(add_to_date(now_datetime(), minutes=2))

		self.assertEqual(self.runs_of(trigger), [])
		reason = frappe.db.get_value("Agent Trigger", trigger, "disabled_reason")
		self.assertIn(f"its runs act as {BOT}, who is disabled", reason)
		[note] = notifications_of("Administrator", trigger)
		self.assertEqual(note.subject, f"Agent Trigger {trigger} disabled itself")
		self.assertTrue(note.link.endswith(f"/huf/triggers/{AGENT.replace(' ', '%20')}"), note.link)
		self.assertIn("who is disabled", note.email_content)
		self.assertEqual(note.type or "", "" if can_send_email() else "Alert")  # emailed only where it can be
		frappe.db.delete("Notification Log", {"document_name": trigger})
		frappe.db.commit()

	def test_the_owner_is_told_when_failures_disable_a_schedule(self):
		self.llm.default = Reply(status=400, error="scripted model failure")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly")
		frappe.db.set_value("Agent Trigger", trigger, "metadata", json.dumps({"failures": MAX_FAILURES - 1}))
		frappe.db.commit()
		planned = get_datetime(frappe.db.get_value("Agent Trigger", trigger, "next_execution"))

		run_scheduled_agents(planned)
		self.assertEqual([run.status for run in self.runs_of(trigger)], ["Failed"])
		run_scheduled_agents(add_to_date(planned, minutes=1))  # the failure is noticed: the last one allowed

		self.assertEqual(frappe.db.get_value("Agent Trigger", trigger, "disabled"), 1)
		[note] = notifications_of("Administrator", trigger)
		self.assertEqual(note.subject, f"Agent Trigger {trigger} disabled itself")
		self.assertIn(f"{MAX_FAILURES} failed runs in a row", note.email_content)
		frappe.db.delete("Notification Log", {"document_name": trigger})
		frappe.db.commit()

	def enable_user(self, user: str) -> None:
		frappe.db.rollback()
		frappe.db.set_value("User", user, "enabled", 1)
		frappe.db.commit()

	def test_who_may_set_a_one_shot_over_rest(self):
		"""POST /api/resource/Agent Trigger runs `frappe.new_doc(...).insert()` as the caller (frappe/api/v1.py)."""
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")
		values = {
			"agent": self.agent,
			"trigger_type": "Schedule",
			"scheduled_interval": "Once",
			"run_in_minutes": 15,
		}
		for user in ("Guest", HUF_USER):
			with self.subTest(user=user):
				frappe.set_user(user)
				try:
					with self.assertRaises(frappe.PermissionError):
						frappe.new_doc("Agent Trigger", **values).insert()
				finally:
					frappe.set_user("Administrator")
		frappe.set_user(MANAGER)
		try:
			doc = frappe.new_doc("Agent Trigger", **values).insert()
			doc.update({"run_in_minutes": 0, "run_at": add_to_date(now_datetime(), hours=3)})
			doc.save()  # PUT /api/resource/Agent Trigger/<name>
		finally:
			frappe.set_user("Administrator")
		self.assertEqual(doc.owner, MANAGER)
		self.assertEqual(get_datetime(doc.next_execution), get_datetime(doc.run_at))
