"""Flows that start on an app event: `huf.fire_app_event` starts each Active flow whose App event trigger
listens on the app and event (and whose condition holds), after the caller commits, as the flow's
acting user."""

import json

import frappe

import huf
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, wait_for_flow_run
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.runs import delete_users

CALLER = "flow-app-event-caller@example.com"  # Huf User whose code fires the event


class TestAppEventFlows(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(CALLER, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [CALLER])

	def setUp(self):
		frappe.db.rollback()

	def app_event_flow(self, event: str = "order_paid", **config):
		return make_flow(
			self,
			[
				node("paid", "trigger.app-event", app="huf", event=event, **config),
				node("done", "end", output="order {{ payload.order }}"),
			],
			[edge("paid", "done")],
		)

	def runs_of(self, flow) -> list:
		wait_for_jobs(60)
		return frappe.get_all(
			"Flow Run",
			filters={"flow_definition": flow.name},
			fields=["name", "trigger_type", "trigger_payload", "user"],
			order_by="creation asc",
		)

	def test_an_app_event_starts_the_flows_listening_on_it_as_their_acting_user(self):
		flow = self.app_event_flow(condition="payload.amount > 10")
		other = self.app_event_flow(event="order_cancelled")
		with self.set_user(CALLER):
			self.assertEqual(huf.fire_app_event("huf", "order_paid", {"order": "SO-1", "amount": 5}), [])
			huf.fire_app_event("huf", "order_paid", {"order": "SO-7731", "amount": 42})
			frappe.db.commit()
		[run] = self.runs_of(flow)
		self.assertEqual(self.runs_of(other), [])
		run = wait_for_flow_run(run.name)
		self.assertEqual((run.status, run.trigger_type, run.user), ("Success", "App Event", "Administrator"))
		self.assertEqual(json.loads(run.trigger_payload), {"order": "SO-7731", "amount": 42})
		self.assertEqual(flow_context(run)["result"], "order SO-7731")

	def test_a_rolled_back_event_or_a_flow_that_is_not_active_starts_nothing(self):
		flow = self.app_event_flow()
		huf.fire_app_event("huf", "order_paid", {"order": "SO-1"})
		frappe.db.rollback()
		self.assertEqual(self.runs_of(flow), [])
		frappe.db.set_value("Flow Definition", flow.name, "status", "Draft")
		frappe.db.commit()
		huf.fire_app_event("huf", "order_paid", {"order": "SO-2"})
		frappe.db.commit()
		self.assertEqual(self.runs_of(flow), [])

	def test_a_flow_starting_on_an_app_event_is_a_triggered_flow(self):
		from huf.huf.doctype.flow_definition.flow_definition import is_triggered

		self.assertTrue(is_triggered(self.app_event_flow()))
