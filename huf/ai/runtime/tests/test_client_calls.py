"""Client-side tool calls: a call of a Client Side tool parks the run until the browser of the run's user
answers; the answer resumes the run with the browser's result as the tool's output. Only the run's user
may answer, once, while the call is pending; guests never; a call nobody answers times out with an
error. Upstream's `huf.ai.cilent_side_tool.client_side_function` tells the caller's own room only."""

import json
from unittest import mock

import frappe
import httpx

from huf.ai.cilent_side_tool import client_side_function
from huf.ai.runtime import client_answers, client_calls, front_door
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.tools import Tool, ToolContext
from huf.api.client_tools import answer_client_tool_call
from huf.huf.tool_schema import UPSTREAM_CLIENT_FUNCTION
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.run_steps import RunSteps, committed_as
from huf.tests.support.tools import ToolTestCase
from huf.tests.support.web import serve_site

ADA = "client-call-ada@example.com"  # runs the agent (Huf User)
BOB = "client-call-bob@example.com"  # another Huf User
MAX = "client-call-max@example.com"  # a Huf Manager
TOOL = "client_page"
UPSTREAM_TOOL = "client_upstream"
ANSWER = "/api/method/huf.api.client_tools.answer_client_tool_call"


class TestClientCalls(RunSteps, ToolTestCase):
	users = ((ADA, ("Huf User",)), (BOB, ("Huf User",)), (MAX, ("Huf Manager",)))

	def setUp(self):
		super().setUp()
		self.make_tool(
			TOOL,
			"Client Side",
			tool_type="Client Side",
			function_path="get_current_page",
			description="The page the user looks at",
		)
		self.make_tool(
			UPSTREAM_TOOL,
			"Custom Function",
			tool_type="Custom",
			function_path=UPSTREAM_CLIENT_FUNCTION,
			parameters=["function_name"],
		)
		self.agent = self.make_tool_agent("Client Call Agent", TOOL, UPSTREAM_TOOL)
		self.published: list[tuple] = []

	# --- helpers -----------------------------------------------------------------------------------

	def ask(self, tool: str = TOOL, arguments: dict | None = None) -> dict:
		"""ADA runs the agent inline; the model calls `tool`, then answers with what it got."""
		self.llm.reset()
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(tool, arguments or {})]), Reply(content="Done.")
		)
		with committed_as(ADA):
			with mock.patch.object(frappe, "publish_realtime", side_effect=self._publish):
				return front_door.start(RunRequest(self.agent, "where am I?", now=True)).as_response()

	def _publish(self, event, message=None, *args, **kwargs):
		self.published.append((event, message, kwargs))

	def answer(self, waiting: dict, user: str = ADA, **values) -> dict:
		"""`user` answers the call `waiting` (a run's waiting answer) with `values` (result or error)."""
		with committed_as(user):
			call = waiting["client_call"]
			return answer_client_tool_call(waiting["agent_run_id"], call["call_id"], **values)

	def tool_result_sent(self) -> str:
		messages = self.llm.chat_requests[-1]["body"]["messages"]
		return [m for m in messages if m["role"] == "tool"][-1]["content"]

	def assert_waits(self, result: dict) -> dict:
		self.assertFalse(result["success"], result)
		self.assertTrue(result.get("waiting_client"), result)
		self.assertEqual(result["status"], "Waiting Approval")
		self.assertIn("browser", result["message"])
		self.assertEqual(
			frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Waiting Approval"
		)
		return result["client_call"]

	# --- park, answer, resume ---------------------------------------------------------------------

	def test_a_call_parks_the_run_and_the_users_answer_resumes_it(self):
		result = self.ask()
		call = self.assert_waits(result)
		self.assertEqual((call["tool_name"], call["function_name"]), (TOOL, "get_current_page"))
		self.assertEqual(call["conversation_id"], result["conversation_id"])
		self.assertEqual(len(self.llm.chat_requests), 1, "the model is not asked again while the run waits")
		self.assertFalse(frappe.db.exists("Agent Tool Call", {"agent_run": result["agent_run_id"]}))
		told = [(m, kw) for event, m, kw in self.published if event == client_calls.CLIENT_CALL_EVENT]
		self.assertEqual(len(told), 1)
		self.assertEqual(told[0][1].get("user"), ADA)  # the run's user's room only
		self.assertEqual(told[0][0]["call_id"], call["call_id"])

		answered = self.answer(result, result={"path": "/huf/chat", "title": "Chat"})
		self.assertEqual(answered["status"], "Answered")
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertEqual(json.loads(self.tool_result_sent()), {"path": "/huf/chat", "title": "Chat"})
		record = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": result["agent_run_id"]},
			fields=["tool", "status", "tool_result"],
		)
		self.assertEqual([(r.tool, r.status) for r in record], [(TOOL, "Completed")])

		with self.assertRaises(frappe.ValidationError):  # answering twice is refused
			self.answer(result, result={"path": "/elsewhere"})

	def test_the_browsers_error_is_the_tools_failure(self):
		result = self.ask()
		self.assert_waits(result)
		self.answer(result, error="navigate: no such page")
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertIn("navigate: no such page", self.tool_result_sent())
		status = frappe.db.get_value("Agent Tool Call", {"agent_run": result["agent_run_id"]}, "status")
		self.assertEqual(status, "Failed")

	def test_the_stream_ends_with_the_client_call(self):
		self.llm.reset()
		self.llm.queue(Reply(content="", tool_calls=[tool_call(TOOL, {})]))
		with committed_as(ADA):
			events = list(front_door.stream(RunRequest(self.agent, "where am I?")))
		for event in events:
			validate_event(event)
		self.assertEqual(
			[(e["type"], e.get("status")) for e in events[-2:]],
			[("run_status", "Waiting Approval"), ("client_call", None)],
		)
		self.assertEqual(events[-1]["function_name"], "get_current_page")

	# --- who may answer -----------------------------------------------------------------------------

	def test_only_the_runs_user_may_answer(self):
		result = self.ask()
		self.assert_waits(result)
		for user in (BOB, MAX, "Administrator", "Guest"):
			with self.subTest(user=user), self.assertRaises(frappe.PermissionError):
				self.answer(result, user=user, result={"path": "/spoofed"})
		self.assertEqual(
			frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Waiting Approval"
		)
		frappe.set_user(ADA)
		try:  # a call id that is not the pending one
			with self.assertRaises(frappe.ValidationError):
				answer_client_tool_call(result["agent_run_id"], "call-not-pending", result={})
		finally:
			frappe.set_user("Administrator")
			frappe.db.rollback()

	def test_guests_are_refused_over_http(self):
		result = self.ask()
		call = self.assert_waits(result)
		server, base = serve_site()
		self.addCleanup(server.shutdown)
		body = {"agent_run_id": result["agent_run_id"], "call_id": call["call_id"], "result": "{}"}
		response = httpx.post(base + ANSWER, data=body, timeout=30)
		self.assertEqual(response.status_code, 403, response.text)
		upstream = httpx.post(
			f"{base}/api/method/{UPSTREAM_CLIENT_FUNCTION}",
			data={"agent_run_id": result["agent_run_id"], "function_name": "navigate"},
			timeout=30,
		)
		self.assertEqual(upstream.status_code, 403, upstream.text)
		self.assertEqual(
			frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Waiting Approval"
		)

	def test_a_guest_run_is_told_no_browser_can_answer(self):
		tool = Tool(name=TOOL, client_function="get_current_page")
		call = mock.Mock(id="c1", args={})
		call.name = TOOL
		outcome = client_calls.ask(tool, call, ToolContext(agent=self.agent, agent_run="R", user="Guest"))
		self.assertFalse(outcome.ok)
		self.assertIn("signed-in user", outcome.content)

	# --- timeout ----------------------------------------------------------------------------------

	def test_a_call_nobody_answers_times_out_with_an_error(self):
		frappe.conf.huf_client_tool_timeout_seconds = 30
		self.addCleanup(frappe.conf.pop, "huf_client_tool_timeout_seconds", None)
		result = self.ask()
		call = self.assert_waits(result)
		self.assertEqual(client_answers.expire_client_calls(), 0, "not due yet")
		run = result["agent_run_id"]
		context = json.loads(frappe.db.get_value("Agent Run", run, "runtime_context"))
		context[client_calls.KEY]["expires_at"] = "2000-01-01 00:00:00"
		frappe.db.set_value("Agent Run", run, "runtime_context", json.dumps(context))
		frappe.db.commit()

		self.assertEqual(client_answers.expire_client_calls(), 1)
		self.assertEqual(self.finished(run), "Success")
		self.assertIn("did not answer", self.tool_result_sent())
		self.assertEqual(frappe.db.get_value("Agent Tool Call", {"agent_run": run}, "status"), "Failed")
		with self.assertRaises(frappe.ValidationError):
			self.answer(result, result={"late": True})
		self.assertTrue(call["expires_at"])

	# --- upstream's path ----------------------------------------------------------------------------

	def test_a_tool_with_upstreams_path_is_answered_by_the_browser(self):
		result = self.ask(UPSTREAM_TOOL, {"function_name": "get_browser_time"})
		call = self.assert_waits(result)
		self.assertEqual(call["function_name"], "get_browser_time")
		self.answer(result, result={"iso": "2026-01-01T00:00:00Z"})
		self.assertEqual(self.finished(result["agent_run_id"]), "Success")
		self.assertIn("2026-01-01", self.tool_result_sent())

	def test_upstreams_function_tells_only_the_callers_own_room(self):
		result = self.ask()
		self.assert_waits(result)
		self.published.clear()
		frappe.set_user(ADA)
		try:
			with mock.patch.object(frappe, "publish_realtime", side_effect=self._publish):
				answer = client_side_function(
					result["conversation_id"], result["agent_run_id"], "navigate", "M1", path="/huf"
				)
		finally:
			frappe.set_user("Administrator")
		self.assertEqual(answer, {"message": "Tool execution requested on frontend"})
		self.assertEqual(len(self.published), 1)
		event, message, target = self.published[0]
		self.assertEqual(event, f"conversation:{result['conversation_id']}")
		self.assertEqual(target.get("user"), ADA)
		self.assertEqual((message["function_name"], message["tool_params"]), ("navigate", {"path": "/huf"}))

		for user, conversation in ((BOB, result["conversation_id"]), (ADA, "some-other-conversation")):
			frappe.set_user(user)
			try:
				with self.subTest(user=user), self.assertRaises(frappe.PermissionError):
					client_side_function(conversation, result["agent_run_id"], "navigate")
			finally:
				frappe.set_user("Administrator")

	def test_a_client_side_tool_names_a_browser_function(self):
		with self.assertRaises(frappe.ValidationError):
			self.make_tool("client_bad", "Client Side", tool_type="Client Side", function_path="alert('x')")
		name = self.make_tool("client_plain", "Client Side", tool_type="Client Side")
		doc = frappe.get_doc("Agent Tool Function", name)
		self.assertIsNone(doc.function_path)
		self.assertEqual(json.loads(doc.function_definition)["name"], "client_plain")
