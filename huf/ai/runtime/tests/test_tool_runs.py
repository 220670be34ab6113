"""Tool runs (huf.ai.runtime.tool_runs): a run through the front door that calls one tool of its agent
and asks no model. It is recorded like a model's call (Agent Run of kind tool, Agent Tool Call, the
conversation's messages), runs the tool as the caller, costs nothing, parks on a tool that requires
approval until an approver decides, and is refused without tools.use or for a tool the agent lacks."""

import json

import frappe

from huf.ai.runtime import front_door, tool_runs
from huf.api.approvals import decide_tool_approval
from huf.huf.capabilities import DEFAULT_HUF_ROLES
from huf.tests.support.factories import delete_huf_role, make_huf_role_user
from huf.tests.support.run_steps import RunSteps, committed_as
from huf.tests.support.runs import delete_users
from huf.tests.support.tools import ToolTestCase

ADA = "tool-run-ada@example.com"  # runs (Huf User)
MAX = "tool-run-max@example.com"  # approves (Huf Manager)
AGENT = "Tool Run Agent"
ASKING = "tool_run_todo_create"  # requires approval
PLAIN = "tool_run_todo_add"
CLIENT = "tool_run_client"
MARK = "tool-run:"
# allocated to the caller: Frappe lets a user without a ToDo role create only ToDos assigned to them
FIELDS = [{"fieldname": "description", "required": 1}, {"fieldname": "allocated_to"}]


class TestToolRuns(RunSteps, ToolTestCase):
	MARK = MARK
	users = ((ADA, ("Huf User",)), (MAX, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=6)
		role = f"Tool Run No Tools {suffix}"
		held = [c for c in DEFAULT_HUF_ROLES["Huf User"]["capabilities"] if c != "tools.use"]
		cls.no_tools = make_huf_role_user(f"tool-run-no-tools-{suffix}@example.com", role, held, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [cls.no_tools])
		cls.addClassCleanup(delete_huf_role, role)

	def setUp(self):
		super().setUp()
		self.make_tool(
			ASKING, "Create Document", reference_doctype="ToDo", parameters=FIELDS, requires_approval=1
		)
		self.make_tool(PLAIN, "Create Document", reference_doctype="ToDo", parameters=FIELDS)
		self.make_tool(CLIENT, "Client Side", tool_type="Client Side")
		self.make_tool_agent(AGENT, ASKING, PLAIN, CLIENT)

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"description": ("like", f"{MARK}%")})
		frappe.db.commit()

	# --- helpers -----------------------------------------------------------------------------------

	def run_tool(self, tool: str, arguments: dict, user: str = ADA) -> dict:
		with committed_as(user):
			request = tool_runs.request(AGENT, tool, arguments, new_conversation=True, now=True)
			return front_door.start(request).as_response()

	def decide(self, approval_id: str, decision: str) -> None:
		with committed_as(MAX):
			decide_tool_approval(approval_id, decision)

	def runs(self) -> int:
		return frappe.db.count("Agent Run", {"agent": AGENT})

	# --- tests ---------------------------------------------------------------------------------------

	def test_the_tool_runs_as_the_caller_and_the_run_records_it_without_a_model(self):
		result = self.run_tool(PLAIN, {"description": f"{MARK} sow the beans", "allocated_to": ADA})
		self.assertTrue(result["success"], result)
		todo = self.todo("sow the beans")
		self.assertEqual(todo.owner, ADA)
		self.assertIn(todo.name, result["response"])
		self.assertEqual(self.llm.chat_requests, [], "no model was asked")

		run = frappe.get_doc("Agent Run", result["agent_run_id"])
		self.assertEqual((run.run_kind, run.user, run.status), ("tool", ADA, "Success"))
		self.assertEqual((float(run.total_cost or 0), run.total_tokens or 0), (0.0, 0))
		self.assertEqual(run.response, result["response"])
		self.assertIn(PLAIN, run.prompt)
		self.assertEqual(result["cost"], 0.0)
		calls = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": run.name},
			fields=["tool", "status", "tool_args", "owner"],
		)
		self.assertEqual([(c.tool, c.status) for c in calls], [(PLAIN, "Completed")])
		self.assertEqual(
			json.loads(calls[0].tool_args), {"description": f"{MARK} sow the beans", "allocated_to": ADA}
		)
		kinds = frappe.get_all(
			"Agent Message",
			filters={"conversation": run.conversation},
			fields=["role", "kind"],
			order_by="creation asc",
		)
		self.assertEqual(
			[(m.role, m.kind) for m in kinds],
			[("user", "Message"), ("agent", "Tool Call"), ("tool", "Tool Result"), ("agent", "Message")],
		)

	def test_a_tool_that_needs_approval_parks_the_run_and_runs_once_approved(self):
		result = self.run_tool(ASKING, {"description": f"{MARK} prune", "allocated_to": ADA})
		self.assertTrue(result.get("waiting_approval"), result)
		self.assertEqual(result["tool_name"], ASKING)
		run = result["agent_run_id"]
		self.assertEqual(frappe.db.get_value("Agent Run", run, "status"), "Waiting Approval")
		request = frappe.get_doc("Agent Tool Approval", result["approval_id"])
		self.assertEqual((request.run_user, request.agent_run, request.status), (ADA, run, "Pending"))
		self.assertIsNone(self.todo("prune"), "the tool ran before the decision")

		self.decide(request.name, "approve")
		self.assertEqual(self.finished(run), "Success")
		todo = self.todo("prune")
		self.assertEqual(todo.owner, ADA, "the approved call ran as the run's user")
		self.assertIn(todo.name, frappe.db.get_value("Agent Run", run, "response"))
		status = frappe.db.get_value("Agent Tool Call", {"agent_run": run}, "status")
		self.assertEqual(status, "Completed")
		self.assertEqual(self.llm.chat_requests, [], "no model was asked")

	def test_a_denied_or_failing_call_fails_the_run(self):
		result = self.run_tool(ASKING, {"description": f"{MARK} burn", "allocated_to": ADA})
		self.decide(result["approval_id"], "deny")
		run = result["agent_run_id"]
		self.assertEqual(self.finished(run), "Failed")
		self.assertIn("denied", frappe.db.get_value("Agent Run", run, "error_message"))
		self.assertIsNone(self.todo("burn"))

		failing = self.run_tool(PLAIN, {})  # the required description is missing
		self.assertFalse(failing["success"], failing)
		self.assertIn("description", failing["error"])
		self.assertEqual(frappe.db.get_value("Agent Run", failing["agent_run_id"], "status"), "Failed")

	def test_refused_without_tools_use_and_for_a_tool_the_agent_cannot_call(self):
		with self.assertRaisesRegex(frappe.PermissionError, "tools.use"):
			self.run_tool(PLAIN, {"description": f"{MARK} nope"}, user=self.no_tools)
		for tool in ("no_such_tool", CLIENT):  # the browser answers a client-side tool during a chat only
			with self.subTest(tool), self.assertRaisesRegex(frappe.ValidationError, "no tool"):
				self.run_tool(tool, {})
		self.assertEqual(self.runs(), 0)
		self.assertIsNone(self.todo("nope"))
