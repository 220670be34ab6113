"""A worker killed (SIGKILL) in the middle of a flow: the run goes on from its last completed node.

Two RQ worker processes, the scheduler's recovery jobs in a third process, one Redis (as in
production); the flow's slow node is an agent whose model takes two minutes to answer.
"""

import os
import signal

import frappe

from huf.ai.runtime import locks
from huf.ai.runtime.tests.test_across_processes import FAST_EXPIRY, ProcessesTestCase
from huf.tests.support.flows import edge, flow_context, make_flow, node
from huf.tests.support.llm_server import Reply
from huf.tests.support.processes import start_job_loop

# flow runs nobody executes are picked up after seconds, not a minute and a half
FAST_FLOW_RECOVERY = (
	FAST_EXPIRY
	+ """
from huf.ai.flows import engine
engine.STALE_SECONDS = 2
"""
)


class TestFlowRunSurvivesAKilledWorker(ProcessesTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.flow_recovery = start_job_loop(
			"huf.ai.flows.engine.recover_flow_runs", interval=0.5, setup=FAST_FLOW_RECOVERY
		)
		cls.addClassCleanup(cls.flow_recovery.stop)

	@property
	def processes(self):
		return [*super().processes, self.flow_recovery]

	def flow_run_status(self, name: str) -> str | None:
		frappe.db.commit()
		return frappe.db.get_value("Flow Run", name, "status")

	def test_a_killed_worker_s_flow_run_resumes_from_its_last_completed_node(self):
		from huf.ai.flows.engine import start_flow_run

		agent = self.make_agent("Flow Crash Agent")
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("first", "agent.run", agent=agent, prompt="first step", conversation="new"),
				node("slow", "agent.run", agent=agent, prompt="slow step", conversation="new"),
				node(
					"done",
					"end",
					output="{{ nodes.first.output.response }} / {{ nodes.slow.output.response }}",
				),
			],
			[edge("start", "first"), edge("first", "slow"), edge("slow", "done")],
		)
		self.llm.queue(Reply(content="first answer"), Reply(content="never delivered", delay=120))
		self.llm.default = Reply(content="slow answer after the crash")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		run = start_flow_run(flow, {"order": "SO-9"})
		frappe.db.commit()

		slow_run = self.wait(
			lambda: (
				self.asked("slow step")
				and frappe.db.get_value("Agent Run", {"flow_run": run.name, "flow_node_id": "slow"}, "name")
			),
			120,
			"no worker reached the slow node",
		)
		owner = self.wait(lambda: locks.run_owner(slow_run), 60, "the slow node's run has no owner")
		self.assertTrue(any(worker.owns(owner) for worker in self.workers), owner)
		self.assertEqual(
			frappe.db.get_value("Flow Run", run.name, ["current_node_id", "hop_count"]), ("slow", 2)
		)
		os.kill(owner, signal.SIGKILL)  # the work horse executing the flow, nothing else

		self.wait(lambda: self.flow_run_status(run.name) == "Success", 180, "the flow run never finished")
		run = frappe.get_doc("Flow Run", run.name)
		context = flow_context(run)
		self.assertEqual(context["result"], "first answer / slow answer after the crash")
		self.assertEqual(self.asked("first step"), 1)  # completed before the crash: never run again
		self.assertGreaterEqual(self.asked("slow step"), 2)  # the node that was running ran once more
		self.assertEqual(run.hop_count, 4)
		self.assertIsNone(run.last_error)
