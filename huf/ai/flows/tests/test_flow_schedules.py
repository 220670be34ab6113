"""Upstream's schedule endpoints over HTTP: schedule_flow puts a trigger.schedule node at the flow's
start (or changes it), unschedule_flow takes it away, execute_scheduled_flow starts one Schedule run
now; who may call them; cron schedules read in another time zone."""

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import frappe
from frappe.utils import get_datetime, get_system_timezone

from huf.ai.flows.context import loads
from huf.ai.flows.starts import next_scheduled_runs, next_time, run_scheduled_flows
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, wait_for_flow_run
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients, server_messages

VIEWER = "flow-schedule-viewer@example.com"
USER = "flow-schedule-user@example.com"
MANAGER = "flow-schedule-manager@example.com"  # the flows' Run As: their scheduled runs act as them
MANAGER_2 = "flow-schedule-manager-2@example.com"
METHOD = "/api/method/huf.ai.flow_api."


class FlowScheduleCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(VIEWER, "Huf Viewer")
		make_user(USER, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(MANAGER_2, "Huf Manager")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [VIEWER, USER, MANAGER, MANAGER_2])
		cls.guest, cls.viewer, cls.user, cls.manager, cls.manager_2, cls.admin = api_clients(
			cls, None, VIEWER, USER, MANAGER, MANAGER_2, "Administrator"
		)

	def setUp(self):
		frappe.db.rollback()  # the server threads commit: hold no savepoint

	def unscheduled_flow(self, **fields):
		"""An Active flow acting as MANAGER that starts without a trigger: work -> done."""
		return make_flow(
			self,
			[
				node(
					"work",
					"transform",
					operations=[{"op": "copy", "from": "payload.scheduled_for", "to": "at"}],
				),
				node("done", "end", output="{{ at }}"),
			],
			[edge("work", "done")],
			run_as=MANAGER,
			**fields,
		)

	def post(self, client, method: str, **body):
		return client.post(METHOD + method, json=body)

	def definition(self, flow) -> dict:
		frappe.db.rollback()
		return json.loads(frappe.db.get_value("Flow Definition", flow.name, "definition_json"))


class TestScheduleFlow(FlowScheduleCase):
	def test_scheduling_puts_a_schedule_node_first_and_unscheduling_takes_it_away(self):
		flow = self.unscheduled_flow()
		version = frappe.db.get_value("Flow Definition", flow.name, "version")
		answer = self.post(
			self.manager,
			"schedule_flow",
			flow_id=flow.name,
			cron="*/5 * * * *",
			schedule_name="Every five",
			timezone=get_system_timezone(),
		)
		self.assertEqual(answer.status_code, 200, answer.text)
		scheduled = answer.json()["message"]
		self.assertEqual(
			(scheduled["status"], scheduled["flow_id"], scheduled["cron"], scheduled["schedule_name"]),
			("scheduled", flow.name, "*/5 * * * *", "Every five"),
		)
		self.assertEqual((scheduled["active"], scheduled["timezone"]), (True, get_system_timezone()))
		first, second = (get_datetime(t) for t in scheduled["next_runs"][:2])
		self.assertEqual((second - first).total_seconds(), 300)

		stored = self.definition(flow)
		entry = stored["entry_node_id"]
		self.assertEqual(
			stored["nodes"][0],
			{
				"id": entry,
				"type": "trigger.schedule",
				"data": {"cron": "*/5 * * * *", "schedule_name": "Every five"},
				"position": {"x": -280, "y": 0},
			},
		)
		self.assertIn({"id": f"{entry}-work", "source": entry, "target": "work"}, stored["edges"])
		self.assertEqual(frappe.db.get_value("Flow Definition", flow.name, "version"), version + 1)

		# the scheduler now starts it, acting as its Run As
		run_scheduled_flows(get_datetime("2031-03-01 10:02:00"))  # plans 10:05
		run_scheduled_flows(get_datetime("2031-03-01 10:05:10"))
		wait_for_jobs(60)
		[run] = frappe.get_all("Flow Run", filters={"flow_definition": flow.name}, pluck="name")
		run = wait_for_flow_run(run)
		self.assertEqual((run.status, run.trigger_type, run.user), ("Success", "Schedule", MANAGER))
		self.assertEqual(flow_context(run)["result"], "2031-03-01 10:05:00")

		# a new schedule changes the same node: another cron, no time zone (the site's), no name
		again = self.post(self.manager, "schedule_flow", flow_id=flow.name, cron="0 9 * * 1-5")
		self.assertEqual(again.status_code, 200, again.text)
		stored = self.definition(flow)
		self.assertEqual(len([n for n in stored["nodes"] if n["type"] == "trigger.schedule"]), 1)
		self.assertEqual(stored["nodes"][0]["data"], {"cron": "0 9 * * 1-5"})

		removed = self.post(self.manager, "unschedule_flow", flow_id=flow.name)
		self.assertEqual(removed.status_code, 200, removed.text)
		self.assertEqual(removed.json()["message"]["status"], "unscheduled")
		stored = self.definition(flow)
		self.assertEqual(stored["entry_node_id"], "work")
		self.assertEqual([n["id"] for n in stored["nodes"]], ["work", "done"])
		self.assertEqual([(e["source"], e["target"]) for e in stored["edges"]], [("work", "done")])
		self.assertIsNone(frappe.db.get_value("Flow Definition", flow.name, "trigger_state"))
		again = self.post(self.manager, "unschedule_flow", flow_id=flow.name)
		self.assertEqual(again.json()["message"]["status"], "not_found")

	def test_an_existing_schedule_node_gets_the_cron_instead_of_its_interval(self):
		flow = make_flow(
			self,
			[node("tick", "trigger.schedule", interval_minutes=30, note="kept"), node("done", "end")],
			[edge("tick", "done")],
			run_as=MANAGER,
			status="Draft",
		)
		answer = self.post(self.manager, "schedule_flow", flow_id=flow.name, cron="15 * * * *")
		self.assertEqual(answer.status_code, 200, answer.text)
		self.assertFalse(answer.json()["message"]["active"])
		self.assertIn("once it is Active", answer.json()["message"]["message"])
		stored = self.definition(flow)
		self.assertEqual(stored["entry_node_id"], "tick")
		self.assertEqual(stored["nodes"][0]["data"], {"note": "kept", "cron": "15 * * * *"})

	def test_only_who_may_change_the_flow_and_its_runs_schedules_it(self):
		flow = self.unscheduled_flow()
		before = self.definition(flow)
		for client, method in (
			(self.guest, "schedule_flow"),
			(self.viewer, "schedule_flow"),
			(self.user, "schedule_flow"),  # Huf Users do not manage flows
			(self.manager_2, "schedule_flow"),  # its runs act as MANAGER
			(self.guest, "unschedule_flow"),
			(self.user, "unschedule_flow"),
		):
			with self.subTest(method=method, client=client.headers.get("Authorization", "guest")[:12]):
				refused = self.post(client, method, flow_id=flow.name, cron="*/5 * * * *")
				self.assertEqual(refused.status_code, 403, refused.text)
		self.assertIn(
			f"act as {MANAGER}",
			server_messages(self.post(self.manager_2, "schedule_flow", flow_id=flow.name, cron="* * * * *")),
		)
		self.assertEqual(self.definition(flow), before)
		for method in ("schedule_flow", "unschedule_flow", "execute_scheduled_flow"):
			got = self.manager.get(METHOD + method, params={"flow_id": flow.name, "cron": "* * * * *"})
			self.assertIn(got.status_code, (403, 405), method)
		self.assertEqual(self.definition(flow), before)
		missing = self.post(self.manager, "schedule_flow", flow_id="no-such-flow", cron="* * * * *")
		self.assertEqual(missing.status_code, 404, missing.text)

	def test_bad_cron_unknown_time_zone_and_another_trigger_are_refused(self):
		flow = self.unscheduled_flow()
		webhook = make_flow(
			self,
			[node("hook", "trigger.webhook"), node("done", "end")],
			[edge("hook", "done")],
			run_as=MANAGER,
		)
		for body, says in (
			({"flow_id": flow.name, "cron": "every monday"}, "not a valid cron expression"),
			({"flow_id": flow.name, "cron": "* * * *"}, "five fields"),
			(
				{"flow_id": flow.name, "cron": "0 9 * * *", "timezone": "Mars/Olympus"},
				"Mars/Olympus is not a time zone",
			),
			({"flow_id": webhook.name, "cron": "0 9 * * *"}, "a flow has one start"),
		):
			with self.subTest(body=body):
				refused = self.post(self.manager, "schedule_flow", **body)
				self.assertEqual(refused.status_code, 417, refused.text)
				self.assertIn(says, server_messages(refused))
		self.assertEqual(self.definition(flow)["entry_node_id"], "work")
		self.assertEqual(self.definition(webhook)["entry_node_id"], "hook")

		branching = make_flow(
			self,
			[node("tick", "trigger.schedule", cron="0 9 * * *"), node("a", "end"), node("b", "end")],
			[edge("tick", "a"), edge("tick", "b", "expression", condition="payload.x")],
			run_as=MANAGER,
		)
		refused = self.post(self.manager, "unschedule_flow", flow_id=branching.name)
		self.assertEqual(refused.status_code, 417, refused.text)
		self.assertIn("remove it in the canvas", server_messages(refused))


class TestExecuteScheduledFlow(FlowScheduleCase):
	def scheduled_flow(self, **fields):
		return make_flow(
			self,
			[
				node("tick", "trigger.schedule", cron="0 9 * * *"),
				node("done", "end", output="{{ payload.scheduled_for }}"),
			],
			[edge("tick", "done")],
			run_as=MANAGER,
			**fields,
		)

	def test_the_acting_user_or_a_system_manager_starts_a_schedule_run_now(self):
		flow = self.scheduled_flow()
		for client in (self.guest, self.viewer, self.user, self.manager_2):
			refused = self.post(client, "execute_scheduled_flow", flow_id=flow.name)
			self.assertEqual(refused.status_code, 403, refused.text)
		self.assertIn(
			f"act as {MANAGER}",
			server_messages(self.post(self.manager_2, "execute_scheduled_flow", flow_id=flow.name)),
		)
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))

		for client in (self.manager, self.admin):
			started = self.post(client, "execute_scheduled_flow", flow_id=flow.name)
			self.assertEqual(started.status_code, 200, started.text)
			answer = started.json()["message"]
			self.assertEqual((answer["flow_id"], answer["status"]), (flow.name, "Queued"))
			run = wait_for_flow_run(answer["flow_run_id"])
			# as the scheduler would: a Schedule run acting as the flow's Run As, the time in its payload
			self.assertEqual((run.status, run.trigger_type, run.user), ("Success", "Schedule", MANAGER))
			self.assertTrue(get_datetime(flow_context(run)["result"]))
		self.assertIsNone(
			loads(frappe.db.get_value("Flow Definition", flow.name, "trigger_state")).get("last_flow_run")
		)

	def test_a_flow_that_is_not_an_active_scheduled_flow_is_refused(self):
		draft = self.scheduled_flow(status="Draft")
		webhook = make_flow(
			self,
			[node("hook", "trigger.webhook"), node("done", "end")],
			[edge("hook", "done")],
			run_as=MANAGER,
		)
		for flow in (draft, webhook):
			refused = self.post(self.manager, "execute_scheduled_flow", flow_id=flow.name)
			self.assertEqual(refused.status_code, 417, refused.text)
			self.assertIn("is not a scheduled flow", server_messages(refused))
		frappe.db.rollback()
		self.assertFalse(
			frappe.db.exists("Flow Run", {"flow_definition": ("in", [draft.name, webhook.name])})
		)


class TestScheduleTimeZone(HufTestCase):
	def test_a_cron_schedule_is_read_on_the_clock_of_its_time_zone(self):
		site = ZoneInfo(get_system_timezone())
		zone = ZoneInfo("Asia/Tokyo" if get_system_timezone() != "Asia/Tokyo" else "America/New_York")
		after = datetime(2031, 3, 1, 12, 0)
		found = next_time(f"cron:0 9 * * *|{zone.key}", after)  # answered on the site's clock
		self.assertEqual(found.replace(tzinfo=site).astimezone(zone).strftime("%H:%M"), "09:00")
		self.assertTrue(after < found <= after + timedelta(days=1))
		self.assertEqual(next_time("cron:0 9 * * *", after), datetime(2031, 3, 2, 9, 0))  # the site's own

		flow = make_flow(
			self,
			[node("tick", "trigger.schedule", cron="0 9 * * *", timezone=zone.key), node("done", "end")],
			[edge("tick", "done")],
		)
		planned = [
			get_datetime(t).replace(tzinfo=site).astimezone(zone) for t in next_scheduled_runs(flow.name, 3)
		]
		self.assertEqual([t.strftime("%H:%M") for t in planned], ["09:00"] * 3)
		self.assertEqual([(b - a).days for a, b in zip(planned, planned[1:], strict=False)], [1, 1])
