"""Tool approval gate: a call of a tool that requires approval waits (Waiting Approval, no worker held)
until an approver decides; each decision kind, expiry, argument tampering, a failing gate, concurrent
decisions, who may decide, and raw arguments kept out of logs. The scripted LLM asks for the tool."""

import json
import os
import threading
from unittest import mock

import frappe
from frappe.utils import time_diff_in_seconds

from huf.ai.agent_integration import run_agent_sync
from huf.ai.runtime import approval_gate, front_door
from huf.ai.runtime.approval_decisions import expire_tool_approvals
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.run_request import RunRequest
from huf.api.approvals import (
	decide_tool_approval,
	list_pending_tool_approvals,
	list_tool_approval_grants,
	revoke_tool_approval_grant,
)
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.run_steps import RunSteps, committed_as
from huf.tests.support.runs import SiteContext
from huf.tests.support.tools import ToolTestCase

ADA = "tool-approval-ada@example.com"  # runs the agent (Huf User)
MAX = "tool-approval-max@example.com"  # approves (Huf Manager)
EVE = "tool-approval-eve@example.com"  # approves too (Huf Manager)
TOOL = "approval_todo_create"
PLAIN_TOOL = "approval_todo_list"
MARK = "tool-approval:"
TODO_FIELDS = [{"fieldname": "description", "required": 1}, {"fieldname": "allocated_to"}]


class TestToolApprovals(RunSteps, ToolTestCase):
	MARK = MARK
	users = ((ADA, ("Huf User",)), (MAX, ("Huf Manager",)), (EVE, ("Huf Manager",)))

	def setUp(self):
		super().setUp()
		self.make_tool(
			TOOL, "Create Document", reference_doctype="ToDo", parameters=TODO_FIELDS, requires_approval=1
		)
		self.make_tool(PLAIN_TOOL, "Get List", reference_doctype="ToDo", parameters=[])
		self.agent = self.make_tool_agent("Tool Approval Agent", TOOL, PLAIN_TOOL)

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"description": ("like", f"{MARK}%")})
		frappe.db.commit()

	# --- helpers -----------------------------------------------------------------------------------

	def ask(self, description: str, conversation: str | None = None, agent: str | None = None) -> dict:
		"""ADA runs the agent inline; the model calls TOOL with `description`, then answers Done."""
		call = tool_call(TOOL, {"description": f"{MARK} {description}", "allocated_to": ADA})
		self.llm.reset()  # replies a parked run never used do not answer this one
		self.llm.queue(Reply(content="", tool_calls=[call]), Reply(content="Done."))
		with committed_as(ADA):
			request = RunRequest(
				agent or self.agent,
				f"please {description}",
				conversation=conversation,
				now=True,
				new_conversation=conversation is None,  # a new conversation unless one is named
			)
			return front_door.start(request).as_response()

	def decide(self, approval_id: str, decision: str, user: str = MAX, comment: str | None = None) -> dict:
		with committed_as(user):
			return decide_tool_approval(approval_id, decision, comment)

	def tool_result_sent(self) -> str:
		"""The tool message the model got in the last request."""
		messages = self.llm.chat_requests[-1]["body"]["messages"]
		return [m for m in messages if m["role"] == "tool"][-1]["content"]

	def assert_waits(self, result: dict) -> dict:
		self.assertTrue(result.get("waiting_approval"), result)
		self.assertFalse(result["success"])
		self.assertEqual(result["status"], "Waiting Approval")
		self.assertEqual(result["tool_name"], TOOL)
		self.assertIn(TOOL, result["message"])
		self.assertEqual(
			frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Waiting Approval"
		)
		return frappe.get_doc("Agent Tool Approval", result["approval_id"])

	# --- decision kinds -----------------------------------------------------------------------------

	def test_approve_once_runs_the_approved_call_and_the_next_call_asks_again(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		self.assertIsNone(self.todo("water the plants"), "the tool ran before the decision")
		self.assertEqual(request.status, "Pending")
		self.assertEqual((request.agent, request.tool_name, request.run_user), (self.agent, TOOL, ADA))
		self.assertEqual(request.conversation, result["conversation_id"])
		expected = {"allocated_to": ADA, "description": f"{MARK} water the plants"}
		self.assertEqual(json.loads(request.arguments), expected)
		self.assertEqual(request.arguments_hash, approval_gate.arguments_hash(json.dumps(expected)))
		self.assertEqual(len(self.llm.chat_requests), 1, "the model is not asked again while the run waits")

		answer = self.decide(request.name, "approve", comment="fine")
		self.assertEqual((answer["status"], answer["scope"]), ("Approved", "Once"))
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertEqual(frappe.db.get_value("Agent Run", result["agent_run_id"], "response"), "Done.")
		self.assertEqual(self.todo("water the plants").owner, ADA)  # ran as the run's user
		self.assertIn(f"{MARK} water the plants", self.tool_result_sent())
		record = frappe.get_all(
			"Agent Tool Call", filters={"agent_run": result["agent_run_id"]}, fields=["tool", "status"]
		)
		self.assertEqual([(r.tool, r.status) for r in record], [(TOOL, "Completed")])

		again = self.ask("feed the cat", conversation=result["conversation_id"])
		self.assert_waits(again)
		self.assertIsNone(self.todo("feed the cat"))

	def test_approve_for_this_conversation_lets_later_calls_there_run_and_nowhere_else(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		self.decide(request.name, "approve_conversation")
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")

		same = self.ask("feed the cat", conversation=result["conversation_id"])
		self.assertTrue(same["success"], same)
		self.assertIsNotNone(self.todo("feed the cat"))

		other = self.ask("walk the dog")  # a new conversation
		self.assert_waits(other)
		self.assertIsNone(self.todo("walk the dog"))

	def test_approve_always_grants_the_tool_of_this_agent_until_revoked(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		self.decide(request.name, "approve_always")
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")

		elsewhere = self.ask("feed the cat")  # another conversation
		self.assertTrue(elsewhere["success"], elsewhere)
		self.assertIsNotNone(self.todo("feed the cat"))
		frappe.set_user(MAX)
		grants = list_tool_approval_grants(self.agent)
		frappe.set_user("Administrator")
		self.assertEqual([(g["approval_id"], g["scope"]) for g in grants], [(request.name, "Always")])

		other_agent = self.make_tool_agent("Tool Approval Agent Two", TOOL)
		self.assert_waits(self.ask("walk the dog", agent=other_agent))  # the grant is per agent

		frappe.set_user(MAX)
		revoke_tool_approval_grant(request.name)
		frappe.set_user("Administrator")
		self.assert_waits(self.ask("wash the car"))
		self.assertIsNone(self.todo("wash the car"))

	def test_deny_tells_the_model_why_and_the_tool_does_not_run(self):
		result = self.ask("delete everything")
		request = self.assert_waits(result)
		self.decide(request.name, "deny", comment="Not today.")
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertIsNone(self.todo("delete everything"))
		sent = self.tool_result_sent()
		self.assertIn("denied", sent)
		self.assertIn(MAX, sent)
		self.assertIn("Not today.", sent)
		status = frappe.db.get_value("Agent Tool Call", {"agent_run": result["agent_run_id"]}, "status")
		self.assertEqual(status, "Failed")

	# --- expiry, tampering, a failing gate ---------------------------------------------------------

	def test_an_expired_request_tells_the_model_and_cannot_be_decided_any_more(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		frappe.db.set_value("Agent Tool Approval", request.name, "expires_at", "2000-01-01 00:00:00")
		frappe.db.commit()
		self.assertEqual(expire_tool_approvals(), 1)
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertEqual(frappe.db.get_value("Agent Tool Approval", request.name, "status"), "Expired")
		self.assertIsNone(self.todo("water the plants"))
		self.assertIn("not approved in time", self.tool_result_sent())
		with self.assertRaises(frappe.ValidationError):
			self.decide(request.name, "approve")

	def test_the_timeout_comes_from_the_site_config(self):
		frappe.conf.huf_tool_approval_timeout_minutes = 5
		self.addCleanup(frappe.conf.pop, "huf_tool_approval_timeout_minutes", None)
		request = self.assert_waits(self.ask("water the plants"))
		waited = time_diff_in_seconds(request.expires_at, request.requested_at)
		self.assertEqual(round(waited), 300)

	def test_changed_arguments_are_a_new_request_never_the_approved_call(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		run = result["agent_run_id"]
		# the call the run will go on with is changed between the request and the decision
		context = json.loads(frappe.db.get_value("Agent Run", run, "runtime_context"))
		function = context["approval"]["calls"][0]["function"]
		function["arguments"] = json.dumps({"description": f"{MARK} open the safe", "allocated_to": ADA})
		frappe.db.set_value("Agent Run", run, "runtime_context", json.dumps(context))
		frappe.db.commit()

		self.decide(request.name, "approve")
		self.assertEqual(self.finished(run), "Waiting Approval")
		self.assertIsNone(self.todo("open the safe"))
		self.assertIsNone(self.todo("water the plants"))
		new = frappe.get_all(
			"Agent Tool Approval",
			filters={"agent_run": run, "status": "Pending"},
			fields=["name", "arguments_hash"],
		)
		self.assertEqual(len(new), 1)
		self.assertNotEqual(new[0].name, request.name)
		self.assertNotEqual(new[0].arguments_hash, request.arguments_hash)

		self.decide(new[0].name, "approve")  # what the approver saw on the new request runs
		self.assertEqual(self.finished(run), "Success")
		self.assertIsNotNone(self.todo("open the safe"))

	def test_a_failing_gate_fails_closed(self):
		with mock.patch.object(approval_gate, "_decision_for", side_effect=RuntimeError("gate broke")):
			result = self.ask("water the plants")
		self.assertTrue(result["success"], result)  # the model was told and answered
		self.assertIsNone(self.todo("water the plants"))
		self.assertIn("approval check", self.tool_result_sent())
		self.assertIn("was not run", self.tool_result_sent())
		self.assertFalse(frappe.db.exists("Agent Tool Approval", {"agent_run": result["agent_run_id"]}))

	# --- concurrency and access ---------------------------------------------------------------------

	def test_of_two_concurrent_decisions_exactly_one_wins(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		barrier = threading.Barrier(2)
		outcomes: dict[str, str] = {}

		contexts = {MAX: SiteContext(MAX), EVE: SiteContext(EVE)}  # made here, entered in the threads

		def decide_as(user: str, decision: str) -> None:
			try:
				with contexts[user]:
					barrier.wait(timeout=30)
					outcomes[user] = decide_tool_approval(request.name, decision)["status"]
			except Exception as exc:
				outcomes[user] = f"refused: {exc}"

		threads = [
			threading.Thread(target=decide_as, args=(MAX, "approve")),
			threading.Thread(target=decide_as, args=(EVE, "deny")),
		]
		for thread in threads:
			thread.start()
		for thread in threads:
			thread.join(timeout=120)
		frappe.db.commit()
		won = [status for status in outcomes.values() if not status.startswith("refused")]
		self.assertEqual(len(won), 1, outcomes)
		self.assertIn("already decided", next(s for s in outcomes.values() if s.startswith("refused")))
		self.assertEqual(frappe.db.get_value("Agent Tool Approval", request.name, "status"), won[0])
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertEqual(self.todo("water the plants") is not None, won[0] == "Approved")

	def test_a_plain_user_neither_sees_nor_decides_approvals(self):
		result = self.ask("water the plants")
		request = self.assert_waits(result)
		frappe.set_user(ADA)  # the run's own user, a Huf User
		try:
			self.assertEqual(list_pending_tool_approvals(), [])
			try:
				self.assertEqual(frappe.get_list("Agent Tool Approval"), [])
			except frappe.PermissionError:
				pass  # no read permission at all: refused outright
			with self.assertRaises(frappe.PermissionError):
				decide_tool_approval(request.name, "approve")
			self.assertFalse(frappe.has_permission("Agent Tool Approval", "read", doc=request.name))
		finally:
			frappe.set_user("Administrator")
			frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Tool Approval", request.name, "status"), "Pending")

		frappe.set_user(MAX)
		pending = list_pending_tool_approvals()
		frappe.set_user("Administrator")
		mine = [p for p in pending if p["approval_id"] == request.name]
		self.assertEqual(len(mine), 1)
		self.assertEqual(mine[0]["arguments"]["description"], f"{MARK} water the plants")
		self.assertEqual(mine[0]["agent_run_id"], result["agent_run_id"])
		with self.assertRaises(frappe.ValidationError):
			self.decide(request.name, "maybe")

	def test_an_agent_row_overrides_the_tool_setting(self):
		agent = frappe.get_doc("Agent", self.agent)
		agent.agent_tool[0].requires_approval = "Never"
		agent.save(ignore_permissions=True)
		frappe.db.commit()
		result = self.ask("water the plants")
		self.assertTrue(result["success"], result)
		self.assertIsNotNone(self.todo("water the plants"))

		frappe.db.set_value("Agent Tool Function", TOOL, "requires_approval", 0)
		agent.reload()
		agent.agent_tool[0].requires_approval = "Always"
		agent.save(ignore_permissions=True)
		frappe.db.commit()
		self.assert_waits(self.ask("feed the cat"))

	# --- stream, later runs, logs ---------------------------------------------------------------------

	def test_the_stream_says_the_run_waits_and_later_runs_of_the_conversation_wait_behind_it(self):
		call = tool_call(TOOL, {"description": f"{MARK} water the plants", "allocated_to": ADA})
		self.llm.queue(Reply(content="", tool_calls=[call]))
		with committed_as(ADA):
			events = list(front_door.stream(RunRequest(self.agent, "please water the plants")))
		for event in events:
			validate_event(event)
		self.assertEqual(
			[(e["type"], e.get("status")) for e in events[-2:]],
			[("run_status", "Waiting Approval"), ("approval_required", None)],
		)
		waiting = events[-1]
		run = waiting["agent_run_id"]
		conversation = frappe.db.get_value("Agent Run", run, "conversation")

		with committed_as(ADA):
			later = run_agent_sync(self.agent, "and then?", conversation_id=conversation, now=1)
		self.assertFalse(later["success"])
		self.assertIn("waits for a tool approval", later["error"])
		self.assertEqual(frappe.db.get_value("Agent Run", later["agent_run_id"], "status"), "Queued")

		self.llm.queue(Reply(content="Watered."), Reply(content="Nothing else."))
		self.decide(waiting["approval_id"], "approve")
		self.assertEqual(self.finished(run), "Success")
		self.assertEqual(self.finished(later["agent_run_id"]), "Success")
		self.assertIsNotNone(self.todo("water the plants"))

	def test_raw_arguments_stay_out_of_logs(self):
		secret = "tool-approval-secret-7f3a9c"
		call = tool_call(TOOL, {"description": f"{MARK} {secret}", "allocated_to": ADA})
		self.llm.queue(Reply(content="", tool_calls=[call]), Reply(content="Done."))
		with committed_as(ADA):
			result = run_agent_sync(self.agent, "please do it", now=1)
		request = self.assert_waits(result)
		self.assertIn(secret, request.arguments)  # on the request, for the approvers
		self.decide(request.name, "deny")
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		with mock.patch.object(approval_gate, "_has_grant", side_effect=RuntimeError(f"boom {secret}")):
			self.llm.queue(Reply(content="", tool_calls=[call]), Reply(content="Done."))
			with committed_as(ADA):
				run_agent_sync(self.agent, "again", now=1)
		logged = frappe.get_all("Error Log", filters={"error": ("like", f"%{secret}%")}, pluck="name")
		self.assertEqual(logged, [])
		log_dir = os.path.join(frappe.get_site_path(), "logs")
		for name in os.listdir(log_dir) if os.path.isdir(log_dir) else []:
			with open(os.path.join(log_dir, name), errors="replace") as handle:
				self.assertNotIn(secret, handle.read(), name)
