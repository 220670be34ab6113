"""The agents' flow tools end to end: an agent driven by the scripted LLM runs a flow, reads its run,
approves it and resumes it, as its user, with the same refusals as the REST API."""

import frappe

from huf.ai.flow_tools import get_flow_tools
from huf.huf.builtin_tools import get_builtin_tools
from huf.huf.capabilities import DEFAULT_HUF_ROLES
from huf.tests.support.factories import delete_huf_role, make_huf_role_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now, wait_for_flow_run
from huf.tests.support.runs import delete_users
from huf.tests.support.tools import ToolTestCase

MANAGER = "flow-tools-manager@example.com"
USER = "flow-tools-user@example.com"
APPROVER = "flow-tools-approver@example.com"
NO_FLOWS = "flow-tools-no-flows@example.com"  # a Huf User's capabilities but flows.use
NO_FLOWS_ROLE = "Flow Tools User Without Flows"
FLOW_TOOLS = ("run_flow", "get_flow_run", "resume_flow_run", "approve_flow_run")
DONE = ("Success", "Failed")


class TestFlowTools(ToolTestCase):
	users = ((MANAGER, ("Huf Manager",)), (USER, ("Huf User",)), (APPROVER, ("Huf User",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		held = [c for c in DEFAULT_HUF_ROLES["Huf User"]["capabilities"] if c != "flows.use"]
		make_huf_role_user(NO_FLOWS, NO_FLOWS_ROLE, held, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [NO_FLOWS])
		cls.addClassCleanup(delete_huf_role, NO_FLOWS_ROLE)

	def setUp(self):
		super().setUp()
		self.agent = self.make_tool_agent("Flow Tools Agent", *FLOW_TOOLS)
		self.flow = make_flow(
			self,
			[node("start", "trigger.webhook"), node("done", "end", output="hello {{ payload.name }}")],
			[edge("start", "done")],
		)

	def approval_flow(self):
		return make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("approve", "human.approval", approvers={"users": [APPROVER]}, message="Ship it?"),
				node("yes", "end", output="shipped"),
				node("no", "end", output="stopped"),
			],
			[
				edge("start", "approve"),
				edge("approve", "yes", meta={"outcome": "approved"}),
				edge("approve", "no", meta={"outcome": "rejected"}),
			],
		)

	def test_the_flow_tools_are_the_builtin_flow_entries(self):
		tools = get_flow_tools()
		self.assertEqual(tuple(t["tool_name"] for t in tools), FLOW_TOOLS)
		builtin = {t["tool_name"]: t for t in get_builtin_tools()}
		for tool in tools:
			self.assertEqual(tool, builtin[tool["tool_name"]])
			self.assertEqual(tool["function_path"], f"huf.ai.flow_api.handle_{tool['tool_name']}")
			self.assertTrue(callable(frappe.get_attr(tool["function_path"])))
			stored = frappe.db.get_value(
				"Agent Tool Function", tool["tool_name"], ["function_path", "types"], as_dict=True
			)
			self.assertEqual((stored.function_path, stored.types), (tool["function_path"], "App Provided"))

	def test_an_agent_runs_a_flow_and_reads_its_run_as_its_user(self):
		started = self.call_tool(
			self.agent, "run_flow", {"flow_id": self.flow.name, "payload": {"name": "Ada"}}, MANAGER
		)
		self.assertEqual(started["record"].status, "Completed", started["content"])
		self.assertEqual(started["data"]["status"], "Queued")
		run = wait_for_flow_run(started["data"]["flow_run_id"])
		self.assertEqual((run.status, run.user, run.trigger_type), ("Success", MANAGER, "Manual"))
		self.assertEqual(flow_context(run)["result"], "hello Ada")

		read = self.call_tool(self.agent, "get_flow_run", {"flow_run_id": run.name}, MANAGER)
		self.assertEqual(read["record"].status, "Completed", read["content"])
		self.assertEqual((read["data"]["status"], read["data"]["result"]), ("Success", "hello Ada"))

	def test_the_tools_refuse_what_the_rest_api_refuses(self):
		denied = self.call_tool(self.agent, "run_flow", {"flow_id": self.flow.name}, NO_FLOWS)
		self.assertEqual(denied["record"].status, "Failed")
		self.assertIn("flows.use", denied["content"])
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": self.flow.name}))

		run = run_flow_now(self.flow, {"name": "Bo"}, user=MANAGER)
		hidden = self.call_tool(self.agent, "get_flow_run", {"flow_run_id": run.name}, USER)
		self.assertEqual(hidden["record"].status, "Failed")
		self.assertIn("not allowed to see flow run", hidden["content"])
		self.assertNotIn("hello Bo", hidden["content"])

	def test_an_approver_decides_through_the_agent_and_nobody_else_can(self):
		run = run_flow_now(self.approval_flow(), {}, user=MANAGER)
		self.assertEqual(run.status, "Waiting Approval", run.last_error)
		for user in (USER, MANAGER):
			refused = self.call_tool(
				self.agent, "approve_flow_run", {"flow_run_id": run.name, "decision": "approved"}, user
			)
			self.assertEqual(refused["record"].status, "Failed")
			self.assertIn("not an approver", refused["content"])
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Waiting Approval")

		seen = self.call_tool(self.agent, "get_flow_run", {"flow_run_id": run.name}, APPROVER)
		self.assertEqual(seen["data"]["waiting"]["message"], "Ship it?")
		decided = self.call_tool(
			self.agent,
			"approve_flow_run",
			{"flow_run_id": run.name, "decision": "rejected", "comment": "not today"},
			APPROVER,
		)
		self.assertEqual(decided["record"].status, "Completed", decided["content"])
		self.assertEqual(decided["data"]["decision"], "rejected")
		run = wait_for_flow_run(run.name, until=DONE)
		context = flow_context(run)
		self.assertEqual((run.status, context["result"]), ("Success", "stopped"))
		self.assertEqual(
			(context["nodes"]["approve"]["output"]["by"], context["nodes"]["approve"]["output"]["comment"]),
			(APPROVER, "not today"),
		)

	def test_resume_flow_run_gives_a_waiting_run_its_input(self):
		asking = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("ask", "human.input", fields=[{"fieldname": "answer", "fieldtype": "Data"}]),
				node("done", "end", output="{{ payload.name }}: {{ nodes.ask.output.values.answer }}"),
			],
			[edge("start", "ask"), edge("ask", "done")],
		)
		run = run_flow_now(asking, {"name": "Cy"}, user=MANAGER)
		self.assertEqual(run.status, "Waiting User")
		arguments = {"flow_run_id": run.name, "payload": {"answer": "yes"}}
		refused = self.call_tool(self.agent, "resume_flow_run", arguments, USER)
		self.assertEqual(refused["record"].status, "Failed")
		self.assertIn("not allowed to see flow run", refused["content"])
		resumed = self.call_tool(self.agent, "resume_flow_run", arguments, MANAGER)
		self.assertEqual(resumed["record"].status, "Completed", resumed["content"])
		run = wait_for_flow_run(run.name, until=DONE)
		self.assertEqual((run.status, flow_context(run)["result"]), ("Success", "Cy: yes"))
