"""One-shot flow schedules: a trigger.schedule node with `at` (or `in_minutes`, turned into `at` when the
flow is saved) starts one run at or after its time and never again; a refused start tells the owner;
who may set one."""

import json

import frappe
from frappe.utils import add_to_date, get_datetime, now_datetime

from huf.ai.flows import schedules
from huf.ai.flows.starts import next_scheduled_runs, process_schedule, run_scheduled_flows
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, make_flow, node, wait_for_flow_run
from huf.tests.support.runs import delete_users

MANAGER = "flow-once-manager@example.com"
HUF_USER = "flow-once-user@example.com"
GONE = "flow-once-gone@example.com"  # a disabled Run As


def schedule_node(flow) -> dict:
	return next(n for n in flow.get_definition()["nodes"] if n["type"] == "trigger.schedule")


class TestOneShotFlowSchedules(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")
		make_user(GONE, "Huf Manager")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [MANAGER, HUF_USER, GONE])

	def one_shot_flow(self, **settings):
		return make_flow(
			self,
			[node("start", "trigger.schedule", **settings), node("done", "end", output="ran")],
			[edge("start", "done")],
		)

	def runs_of(self, flow) -> list:
		return frappe.get_all("Flow Run", filters={"flow_definition": flow.name}, pluck="name")

	def test_in_minutes_becomes_at_when_the_flow_is_saved(self):
		before = now_datetime()
		flow = self.one_shot_flow(in_minutes=30)
		config = schedule_node(flow)["data"]
		self.assertNotIn("in_minutes", config)
		at = get_datetime(config["at"])
		self.assertGreaterEqual(at, add_to_date(before, minutes=30, seconds=-1))
		self.assertLess(at, add_to_date(before, minutes=31))
		flow.reload()
		flow.save()  # saved again: the time stays
		self.assertEqual(get_datetime(schedule_node(flow)["data"]["at"]), at)
		self.assertEqual(next_scheduled_runs(flow.name), [str(at)])

		with self.assertRaisesRegex(frappe.ValidationError, "whole number of minutes"):
			self.one_shot_flow(in_minutes=-5)

	def test_it_starts_once_at_its_time_then_is_done(self):
		at = add_to_date(now_datetime(), minutes=10).replace(microsecond=0)
		flow = self.one_shot_flow(at=str(at))

		run_scheduled_flows(add_to_date(at, minutes=-1))
		self.assertEqual(self.runs_of(flow), [])

		late = add_to_date(at, minutes=2)
		self.assertIsNotNone(process_schedule(flow.name, late))
		self.assertIsNone(process_schedule(flow.name, late))  # a second tick (or worker) at once
		run_scheduled_flows(add_to_date(at, days=1))
		[run] = self.runs_of(flow)
		self.assertEqual(wait_for_flow_run(run).status, "Success")

		flow.reload()
		state = json.loads(flow.trigger_state)
		self.assertEqual(state["fired"], f"at:{at}")
		described = schedules.describe(flow)
		self.assertEqual((described["at"], described["active"]), (str(at), False))
		self.assertEqual(get_datetime(described["fired_at"]), late)
		self.assertEqual(described["next_runs"], [])

	def test_a_refused_start_tells_the_owner_and_is_not_retried(self):
		at = add_to_date(now_datetime(), minutes=5).replace(microsecond=0)
		flow = make_flow(
			self,
			[node("start", "trigger.schedule", at=str(at)), node("done", "end")],
			[edge("start", "done")],
			run_as=GONE,
		)
		frappe.db.set_value("User", GONE, "enabled", 0)
		frappe.db.commit()
		self.addCleanup(self.enable, GONE)

		run_scheduled_flows(add_to_date(at, minutes=1))
		run_scheduled_flows(add_to_date(at, minutes=2))

		self.assertEqual(self.runs_of(flow), [])
		notes = frappe.get_all(
			"Notification Log",
			filters={"document_type": "Flow Definition", "document_name": flow.name},
			fields=["for_user", "subject", "email_content", "link"],
		)
		self.addCleanup(self.forget_notifications, flow.name)
		self.assertEqual([n.for_user for n in notes], [flow.owner])
		self.assertEqual(notes[0].subject, f"The one-shot schedule of flow {flow.name} could not start")
		self.assertIn("It will not try again", notes[0].email_content)
		self.assertTrue(notes[0].link.endswith(f"/huf/flows/{flow.name}"), notes[0].link)

	def enable(self, user: str) -> None:
		frappe.db.rollback()
		frappe.db.set_value("User", user, "enabled", 1)
		frappe.db.commit()

	def forget_notifications(self, name: str) -> None:
		frappe.db.rollback()
		frappe.db.delete("Notification Log", {"document_name": name})
		frappe.db.commit()

	def test_who_may_set_a_one_shot(self):
		"""PUT /api/resource/Flow Definition/<name> runs `doc.update(data); doc.save()` as the caller."""
		with self.set_user(MANAGER):  # the manager's own flow: its triggered runs act as them
			flow = self.one_shot_flow(at=str(add_to_date(now_datetime(), hours=1)))
		definition = flow.get_definition()
		definition["nodes"][0]["data"] = {"in_minutes": 15}
		for user in ("Guest", HUF_USER):
			with self.subTest(user=user), self.set_user(user), self.assertRaises(frappe.PermissionError):
				doc = frappe.get_doc("Flow Definition", flow.name)
				doc.update({"definition_json": json.dumps(definition)})
				doc.save()
		with self.set_user(MANAGER):
			doc = frappe.get_doc("Flow Definition", flow.name)
			doc.update({"definition_json": json.dumps(definition)})
			doc.save()
		self.assertIn("at", schedule_node(doc)["data"])
