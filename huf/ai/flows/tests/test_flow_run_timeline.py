"""The flow runs list and a run's timeline (huf.api.flows.get_flow_run_timeline, list_flow_runs filters):
each step timed, its Agent Runs' LLM and tool calls timed, readable only by who may read the run."""

import frappe

from huf.ai import flow_api
from huf.api import flows as flows_api
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.tools import ToolTestCase
from huf.tests.support.web import api_clients

OWNER = "timeline-owner@example.com"  # a Huf User whose run it is
OTHER = "timeline-other@example.com"  # a Huf User: not theirs
MANAGER = "timeline-manager@example.com"
TOOL = "timeline_todo_list"


class TestFlowRunTimeline(ToolTestCase):
	users = ((OWNER, ("Huf User",)), (OTHER, ("Huf User",)), (MANAGER, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.guest, cls.other_client, cls.owner_client = api_clients(cls, None, OTHER, OWNER)

	def agent_flow(self):
		self.make_tool(TOOL, "Get List", reference_doctype="ToDo")
		agent = self.make_tool_agent("Timeline Agent", TOOL)
		return make_flow(
			self,
			[
				node("start", "trigger.webhook", label="Order in"),
				node(
					"ask", "agent.run", agent=agent, prompt="Check {{ payload.order }}", label="Check order"
				),
				node("done", "end", output="{{ nodes.ask.output.response }}"),
			],
			[edge("start", "ask"), edge("ask", "done", "on_success")],
		)

	def test_each_step_and_each_llm_and_tool_call_is_timed(self):
		flow = self.agent_flow()
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(TOOL, {}, "call_t1")], delay=0.2),
			Reply(content="All fine.", delay=0.3),
		)
		run = run_flow_now(flow, {"order": "SO-9"}, user=OWNER)
		self.assertEqual(run.status, "Success", run.last_error)
		# the engine logs every hop with its times; expressions do not see the log
		logged = flow_context(run)["steps"]
		self.assertEqual([s["node_id"] for s in logged], ["start", "ask", "done"])
		self.assertEqual(flow_context(run)["result"], "All fine.")

		with self.set_user(OWNER):
			timeline = flows_api.get_flow_run_timeline(run.name)
		self.assertEqual(
			(timeline["status"], timeline["flow_id"], timeline["user"]), ("Success", flow.name, OWNER)
		)
		self.assertFalse(timeline["can_cancel"], "a finished run cannot be cancelled")
		steps = timeline["steps"]
		self.assertEqual(
			[(s["node_id"], s["label"], s["type"], s["status"]) for s in steps],
			[
				("start", "Order in", "trigger.webhook", "success"),
				("ask", "Check order", "agent.run", "success"),
				("done", "done", "end", "success"),
			],
		)
		for step in steps:
			self.assertTrue(step["started_at"] and step["finished_at"], step)
			self.assertGreaterEqual(step["duration_ms"], 0)
		ask = steps[1]
		self.assertGreaterEqual(ask["duration_ms"], 500, "the step lasts as long as its two model answers")
		(agent_run,) = ask["agent_runs"]
		self.assertEqual((agent_run["status"], agent_run["run_kind"]), ("Success", "agent"))
		self.assertEqual(
			[(s["kind"], s["name"], s["status"]) for s in agent_run["spans"]],
			[("llm", "LLM call", "success"), ("tool", TOOL, "success"), ("llm", "LLM call", "success")],
		)
		first, _tool, second = agent_run["spans"]
		self.assertGreaterEqual(first["duration_ms"], 200)
		self.assertGreaterEqual(second["duration_ms"], 300)
		self.assertLessEqual(first["finished_at"], _tool["started_at"])
		self.assertLessEqual(_tool["finished_at"], second["started_at"] or "")
		self.assertEqual(timeline["total_tokens"], agent_run["total_tokens"])
		self.assertEqual(steps[0]["agent_runs"], [])

		# a manager reads it too; the list shows it with its cost, filtered by flow, user and day
		with self.set_user(MANAGER):
			self.assertEqual(flows_api.get_flow_run_timeline(run.name)["flow_run_id"], run.name)
			day = str(run.creation)[:10]
			rows = flow_api.list_flow_runs(flow_id=flow.name, user=OWNER, from_date=day, to_date=day)
			self.assertEqual([r["name"] for r in rows], [run.name])
			self.assertEqual(rows[0]["flow_name"], flow.flow_name)
			self.assertEqual(rows[0]["total_tokens"], agent_run["total_tokens"])
			self.assertEqual(flow_api.list_flow_runs(flow_id=flow.name, user=OTHER), [])
			self.assertEqual(
				flow_api.list_flow_runs(flow_id=flow.name, from_date="2000-01-01", to_date="2000-01-02"), []
			)
			self.assertEqual(flow_api.list_flow_runs(flow_id=flow.name, start=1), [])

	def test_only_who_may_read_the_run_gets_its_timeline(self):
		flow = make_flow(
			self, [node("start", "trigger.webhook"), node("done", "end")], [edge("start", "done")]
		)
		run = run_flow_now(flow, {}, user=OWNER)
		# another Huf User: refused in Python and over HTTP, and their list does not show it
		with self.set_user(OTHER), self.assertRaises(frappe.PermissionError):
			flows_api.get_flow_run_timeline(run.name)
		with self.set_user(OTHER):
			self.assertNotIn(run.name, [r["name"] for r in flow_api.list_flow_runs(limit=200)])
		method = "/api/method/huf.api.flows.get_flow_run_timeline"
		self.assertEqual(self.other_client.get(method, params={"flow_run_id": run.name}).status_code, 403)
		self.assertEqual(self.guest.get(method, params={"flow_run_id": run.name}).status_code, 403)
		# a read only: POST is refused
		self.assertEqual(self.owner_client.post(method, json={"flow_run_id": run.name}).status_code, 403)
		response = self.owner_client.get(method, params={"flow_run_id": run.name})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual([s["node_id"] for s in response.json()["message"]["steps"]], ["start", "done"])
		with self.set_user(MANAGER), self.assertRaises(frappe.DoesNotExistError):
			flows_api.get_flow_run_timeline("no-such-run")

	def test_a_waiting_run_offers_cancel_to_its_user_and_managers_and_says_who_cancelled(self):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("approve", "human.approval", approvers={"users": [MANAGER, OTHER]}, message="Go?"),
				node("yes", "end"),
			],
			[edge("start", "approve"), edge("approve", "yes", meta={"outcome": "approved"})],
		)
		run = run_flow_now(flow, {}, user=OWNER)
		self.assertEqual(run.status, "Waiting Approval")
		# the approver (a Huf User) reads the waiting run but may not cancel it
		for user, allowed in ((OWNER, True), (MANAGER, True), (OTHER, False)):
			with self.set_user(user):
				self.assertEqual(flows_api.get_flow_run_timeline(run.name)["can_cancel"], allowed, user)
				self.assertEqual(flow_api.get_flow_run(run.name)["can_cancel"], allowed, user)
		with self.set_user(OWNER):
			waiting = flows_api.get_flow_run_timeline(run.name)
			self.assertEqual([s["status"] for s in waiting["steps"]], ["success", "waiting"])
			flows_api.cancel_flow_run(run.name, "not needed")
			cancelled = flows_api.get_flow_run_timeline(run.name)
		self.assertEqual((cancelled["status"], cancelled["cancelled_by"]), ("Cancelled", OWNER))
		self.assertTrue(cancelled["cancelled_at"])
		self.assertEqual(cancelled["last_error"], "not needed")
		self.assertFalse(cancelled["can_cancel"])
