"""Cancelling agent runs for good: a Queued run never runs, a running one stops before its next model or
tool call keeping its cost, a run Waiting Approval is closed; the stream and the sync call say so;
who may cancel, and a finished run refused. The scripted LLM holds a run mid-flight (`Reply.hold`)."""

import threading
from unittest.mock import patch

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.runtime import front_door, queue
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.recovery import recover_stale_runs
from huf.ai.runtime.run_request import RunRequest
from huf.api.approvals import decide_tool_approval
from huf.api.runs import cancel_agent_run
from huf.tests.support.jobs import wait_for_jobs, wait_until
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import SiteContext, make_priced_model
from huf.tests.support.tools import ToolTestCase

ADA = "cancel-ada@example.com"  # runs the agent (Huf User)
BOB = "cancel-bob@example.com"  # another Huf User
MAX = "cancel-max@example.com"  # Huf Manager
PRICED = "cancel-priced-model"  # 0.02 per scripted round (10 input, 5 output tokens)
LIST_TOOL = "cancel_todo_list"
APPROVAL_TOOL = "cancel_todo_create"
MARK = "cancel-test:"


class TestCancelAgentRun(ToolTestCase):
	users = ((ADA, ("Huf User",)), (BOB, ("Huf User",)), (MAX, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_priced_model(PRICED)

	def setUp(self):
		super().setUp()
		self.make_tool(LIST_TOOL, "Get List", reference_doctype="ToDo", parameters=[])
		self.make_tool(
			APPROVAL_TOOL,
			"Create Document",
			reference_doctype="ToDo",
			parameters=[{"fieldname": "description", "required": 1}],
			requires_approval=1,
		)
		self.agent = self.make_tool_agent("Cancel Test Agent", LIST_TOOL, APPROVAL_TOOL, model=PRICED)
		self.hold = threading.Event()
		self.addCleanup(self.hold.set)  # never leave a run (or the scripted server) waiting

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"description": ("like", f"{MARK}%")})
		frappe.db.commit()

	# --- helpers -----------------------------------------------------------------------------------

	def as_user(self, user: str, function, *args, **kwargs):
		frappe.set_user(user)
		try:
			return function(*args, **kwargs)
		finally:
			frappe.set_user("Administrator")
			frappe.db.commit()

	def cancel(self, run: str, user: str = ADA, reason: str | None = None) -> dict:
		return self.as_user(user, cancel_agent_run, run, reason)

	def queued(self, prompt: str, conversation: str | None = None):
		"""A Queued run of ADA that no drainer was asked to run yet."""
		request = RunRequest(self.agent, prompt, conversation=conversation)
		with patch.object(queue, "kick_drainer"):
			return self.as_user(ADA, front_door.enqueue, request)

	def run_of(self, name: str) -> dict:
		fields = ["status", "cancelled_by", "cancelled_at", "error_message", "input_tokens"]
		fields += ["output_tokens", "total_cost", "conversation"]
		return frappe.db.get_value("Agent Run", name, fields, as_dict=True)

	def in_thread(self, function, *args, **kwargs) -> tuple[threading.Thread, dict]:
		"""Call `function` as ADA in a new thread on this site; its result (or error) lands in the dict."""
		out: dict = {}
		context = SiteContext(ADA)

		def target():
			try:
				with context:
					out["result"] = function(*args, **kwargs)
			except Exception as exc:
				out["error"] = exc

		thread = threading.Thread(target=target)
		thread.start()
		self.addCleanup(thread.join, 120)
		return thread, out

	def held_run(self, requests: int = 1) -> str:
		"""Wait until the scripted LLM holds a request (the `requests`-th); the run making it (ADA's latest)."""
		wait_until(
			lambda: len(self.llm.chat_requests) >= requests, timeout=120, message="no model request arrived"
		)
		return wait_until(
			lambda: frappe.db.get_value("Agent Run", {"agent": self.agent, "status": "Started"}, "name"),
			message="no run started",
		)

	# --- queued ------------------------------------------------------------------------------------

	def test_a_cancelled_queued_run_never_runs_and_the_runs_behind_it_go_on(self):
		first = self.queued("first question")
		second = self.queued("second question", conversation=first.conversation)
		third = self.queued("third question", conversation=first.conversation)
		answer = self.cancel(first.run, reason="asked by mistake")
		self.assertEqual(answer["status"], "Cancelled")
		self.assertEqual(answer["cancelled_by"], ADA)
		# as huf/ai/orchestration/steps.py cancels a step's queued run: the status alone
		frappe.db.set_value("Agent Run", second.run, "status", "Cancelled")
		frappe.db.commit()
		self.llm.queue("The third answer.")
		queue.kick_drainer(first.conversation)
		wait_for_jobs(120)

		self.assertEqual(
			wait_until(lambda: self.run_of(third.run).status != "Queued" and self.run_of(third.run).status),
			"Success",
		)
		# only the third run asked the model (a slow machine's client may ask twice: a retry, same question)
		asked = [str(request["body"]["messages"]) for request in self.llm.chat_requests]
		self.assertTrue(asked)
		for messages in asked:
			self.assertIn("third question", messages)
			self.assertNotIn("first question", messages)
			self.assertNotIn("second question", messages)
		run = self.run_of(first.run)
		self.assertEqual((run.status, run.cancelled_by), ("Cancelled", ADA))
		self.assertTrue(run.cancelled_at)
		self.assertIn(f"cancelled by {ADA}", run.error_message)
		self.assertIn("asked by mistake", run.error_message)
		self.assertEqual(self.run_of(second.run).status, "Cancelled")
		self.assertFalse(frappe.db.exists("Agent Message", {"agent_run": ("in", [first.run, second.run])}))

	# --- running -----------------------------------------------------------------------------------

	def test_a_running_run_stops_before_its_next_tool_call_and_keeps_its_cost(self):
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(LIST_TOOL, {})]),
			Reply(content="", tool_calls=[tool_call(LIST_TOOL, {})], hold=self.hold),
			Reply(content="Never asked."),
		)
		queued = self.as_user(ADA, run_agent_sync, self.agent, "list my todos")  # the drainer runs it
		run = self.held_run(requests=2)  # its tool was called, the second model call is held
		self.assertEqual(run, queued["agent_run_id"])
		self.assertEqual(self.cancel(run)["status"], "Cancelled")
		self.hold.set()
		wait_for_jobs(120)

		stored = wait_until(lambda: (r := self.run_of(run)).input_tokens == 20 and r)
		self.assertEqual((stored.status, stored.cancelled_by), ("Cancelled", ADA))
		self.assertEqual(stored.output_tokens, 10)
		self.assertAlmostEqual(stored.total_cost, 0.04, places=6)  # both rounds, the held one too
		self.assertEqual(len(self.llm.chat_requests), 2)
		self.assertEqual(frappe.db.count("Agent Tool Call", {"agent_run": run}), 1)  # not the second call
		self.assertAlmostEqual(
			frappe.db.get_value("Agent Conversation", stored.conversation, "total_cost"), 0.04, places=6
		)
		# nothing starts it again: not recovery, not a drainer
		recover_stale_runs()
		queue.kick_drainer(stored.conversation)
		wait_for_jobs(120)
		self.assertEqual(self.run_of(run).status, "Cancelled")
		self.assertEqual(len(self.llm.chat_requests), 2)

	def test_the_stream_ends_with_a_cancelled_event_and_the_late_answer_is_dropped(self):
		self.llm.queue(Reply(content="A late answer.", hold=self.hold))
		thread, out = self.in_thread(
			lambda: list(front_door.stream(RunRequest(self.agent, "a long question")))
		)
		run = self.held_run()
		self.cancel(run, user=MAX)
		self.hold.set()
		thread.join(120)

		self.assertNotIn("error", out)
		seen = out["result"]
		for event in seen:
			validate_event(event)
		self.assertEqual(seen[-2], {"type": "run_status", "status": "Cancelled", "agent_run_id": run})
		self.assertEqual(seen[-1]["type"], "error")
		self.assertIn(f"cancelled by {MAX}", seen[-1]["content"])
		stored = self.run_of(run)
		self.assertEqual((stored.status, stored.cancelled_by), ("Cancelled", MAX))
		self.assertEqual(stored.input_tokens, 10)  # the answer's usage is kept, the answer is not
		answers = frappe.get_all("Agent Message", {"agent_run": run, "role": "agent"}, pluck="kind")
		self.assertEqual(answers, ["Error"])

	def test_the_sync_call_answers_cancelled(self):
		self.llm.queue(Reply(content="A late answer.", hold=self.hold))
		thread, out = self.in_thread(run_agent_sync, self.agent, "a long question", now=1)
		run = self.held_run()
		self.cancel(run)
		self.hold.set()
		thread.join(120)

		result = out["result"]
		self.assertFalse(result["success"])
		self.assertTrue(result["cancelled"])
		self.assertIn(f"cancelled by {ADA}", result["error"])
		self.assertEqual(result["usage"]["input_tokens"], 10)
		self.assertEqual(self.run_of(run).status, "Cancelled")

	# --- waiting approval --------------------------------------------------------------------------

	def test_a_run_waiting_approval_is_closed_and_no_decision_resumes_it(self):
		call = tool_call(APPROVAL_TOOL, {"description": f"{MARK} buy milk"})
		self.llm.queue(Reply(content="", tool_calls=[call]), Reply(content="Done."))
		result = self.as_user(ADA, run_agent_sync, self.agent, "buy milk", now=1)
		self.assertEqual(result["status"], "Waiting Approval")
		run = result["agent_run_id"]

		self.assertEqual(self.cancel(run, user=MAX)["status"], "Cancelled")
		request = frappe.db.get_value(
			"Agent Tool Approval", result["approval_id"], ["status", "decided_by"], as_dict=True
		)
		self.assertEqual((request.status, request.decided_by), ("Expired", MAX))
		with self.assertRaisesRegex(frappe.ValidationError, "already decided"):
			self.as_user(MAX, decide_tool_approval, result["approval_id"], "approve")
		wait_for_jobs(60)
		stored = self.run_of(run)
		self.assertEqual((stored.status, stored.cancelled_by), ("Cancelled", MAX))
		self.assertEqual(len(self.llm.chat_requests), 1)
		self.assertFalse(frappe.db.exists("ToDo", {"description": f"{MARK} buy milk"}))
		self.assertAlmostEqual(
			frappe.db.get_value("Agent Conversation", stored.conversation, "total_cost"), 0.02, places=6
		)

	# --- who may cancel, finished runs -------------------------------------------------------------

	def test_only_the_runs_user_and_managers_may_cancel(self):
		run = self.queued("who may cancel").run
		for user in (BOB, "Guest"):
			with self.assertRaises(frappe.PermissionError):
				self.cancel(run, user=user)
		with self.assertRaises(frappe.PermissionError):
			self.cancel("no-such-run", user=ADA)
		self.assertEqual(self.run_of(run).status, "Queued")
		self.assertEqual(self.cancel(run, user=ADA)["cancelled_by"], ADA)
		again = self.cancel(run, user=MAX)  # idempotent: the first cancellation stands
		self.assertEqual((again["status"], again["cancelled_by"]), ("Cancelled", ADA))

		other = self.queued("a manager cancels").run
		self.assertEqual(self.cancel(other, user=MAX)["cancelled_by"], MAX)

	def test_a_finished_run_is_already_finished(self):
		self.llm.queue("Done.")
		result = self.as_user(ADA, run_agent_sync, self.agent, "quick", now=1)
		self.assertTrue(result["success"], result)
		with self.assertRaisesRegex(frappe.ValidationError, "already Success"):
			self.cancel(result["agent_run_id"])
		stored = self.run_of(result["agent_run_id"])
		self.assertEqual((stored.status, stored.cancelled_by), ("Success", None))
