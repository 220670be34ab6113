"""Pause All Runs (docs/budgets.md) and flows: a start is refused with 423 and leaves no Flow Run; a run
already queued stops before its next node; after resuming flows run again."""

import frappe

from huf.ai.flows.engine import start_flow_run
from huf.ai.runtime import budgets
from huf.ai.runtime.budgets import RunsPaused
from huf.tests.support.case import HufTestCase
from huf.tests.support.flows import edge, make_flow, node, run_flow_now, wait_for_flow_run


class TestFlowPause(HufTestCase):
	def setUp(self):
		super().setUp()
		self.flow = make_flow(
			self,
			[node("start", "trigger.webhook"), node("done", "end", output="done")],
			[edge("start", "done")],
		)
		self.addCleanup(self.resume)

	def resume(self):
		frappe.db.rollback()
		budgets.set_paused(False)
		frappe.db.commit()

	def test_a_paused_site_refuses_flow_starts_stops_queued_runs_and_resumes(self):
		queued = start_flow_run(self.flow)  # enqueued after the commit, which also pauses
		budgets.set_paused(True)
		frappe.db.commit()
		run = wait_for_flow_run(queued.name)
		self.assertEqual(run.status, "Failed")
		self.assertIn("paused", run.last_error)
		self.assertEqual(run.hop_count, 0)  # no node ran

		runs = frappe.db.count("Flow Run", {"flow_definition": self.flow.name})
		with self.assertRaises(RunsPaused) as caught:
			start_flow_run(self.flow)
		self.assertEqual(caught.exception.http_status_code, 423)
		self.assertEqual(frappe.db.count("Flow Run", {"flow_definition": self.flow.name}), runs)

		self.resume()
		self.assertEqual(run_flow_now(self.flow).status, "Success")
