"""run_agent_sync, get_agent_run_status and front_door.stream with the real LiteLLM over HTTP."""

import json
import logging
import os
from unittest.mock import patch

import frappe
from frappe.utils import get_site_path

from huf.ai.agent_integration import AgentManager, get_agent_run_status, run_agent_sync
from huf.ai.runtime import front_door
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.tools import Tool, registered_tools
from huf.tests.support.jobs import wait_for_jobs, wait_until
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import API_KEY, MODEL, RuntimeTestCase, make_runtime_model

ALICE = "runtime-alice@example.com"
BOB = "runtime-bob@example.com"
VIEWER = "runtime-viewer@example.com"
MANAGER = "runtime-manager@example.com"


def messages_of(conversation: str) -> list[tuple[str, str, str]]:
	rows = frappe.get_all(
		"Agent Message",
		filters={"conversation": conversation},
		fields=["role", "kind", "content"],
		order_by="conversation_index asc",
	)
	return [(row.role, row.kind, row.content) for row in rows]


class TestRunAgentSync(RuntimeTestCase):
	users = ((ALICE, ("Huf User",)),)

	def test_now_runs_inline_and_records_the_run(self):
		agent = self.make_agent("Runtime Plain Agent")
		make_runtime_model(
			MODEL, use_custom_pricing=1, input_cost_per_1m_tokens=2.0, output_cost_per_1m_tokens=8.0
		)
		self.addCleanup(
			make_runtime_model,
			MODEL,
			use_custom_pricing=0,
			input_cost_per_1m_tokens=0,
			output_cost_per_1m_tokens=0,
		)
		self.llm.queue(Reply(content="Paris is the capital.", prompt_tokens=1000, completion_tokens=250))

		result = run_agent_sync(agent, "What is the capital of France?", now=1)

		self.assertTrue(result["success"])
		self.assertEqual(result["response"], "Paris is the capital.")
		self.assertEqual(result["usage"]["input_tokens"], 1000)
		self.assertEqual(result["usage"]["total_tokens"], 1250)
		self.assertAlmostEqual(result["cost"], 1000 / 1e6 * 2.0 + 250 / 1e6 * 8.0)
		run = frappe.get_doc("Agent Run", result["agent_run_id"])
		self.assertDocumentEqual(
			{
				"status": "Success",
				"response": "Paris is the capital.",
				"input_tokens": 1000,
				"output_tokens": 250,
				"total_tokens": 1250,
				"sequence": 1,
				"user": "Administrator",
				"conversation": result["conversation_id"],
			},
			run,
		)
		self.assertAlmostEqual(run.total_cost, result["cost"])
		self.assertTrue(run.start_time and run.end_time)
		self.assertEqual(
			messages_of(result["conversation_id"]),
			[
				("user", "Message", "What is the capital of France?"),
				("agent", "Message", "Paris is the capital."),
			],
		)
		totals = frappe.db.get_value(
			"Agent Conversation", result["conversation_id"], ["total_tokens", "total_cost"], as_dict=True
		)
		self.assertEqual(totals.total_tokens, 1250)
		self.assertAlmostEqual(totals.total_cost, result["cost"])
		body = self.llm.chat_requests[-1]["body"]
		self.assertEqual(body["messages"][0], {"role": "system", "content": "You are a test agent."})
		self.assertEqual((body["temperature"], body["top_p"]), (0.3, 0.9))
		self.assertEqual(frappe.db.get_value("Agent", agent, "total_run"), 1)

	def test_queued_by_default_then_drained_in_the_background(self):
		agent = self.make_agent("Runtime Queue Agent")
		self.llm.queue(Reply(content="Done in the background."))
		result = run_agent_sync(agent, "Please work on this", channel_id="api", external_id="ticket-7")
		self.assertEqual(set(result), {"queued", "agent_run_id", "conversation_id", "session_id"})
		self.assertTrue(result["queued"])
		self.assertEqual(result["session_id"], "api:ticket-7")
		self.assertTrue(wait_for_jobs(120))
		status = get_agent_run_status(result["agent_run_id"])
		self.assertEqual(status["status"], "Success")
		self.assertEqual(status["response"], "Done in the background.")
		self.assertEqual(status["usage"]["total_tokens"], 15)

	def test_every_status_change_is_published_to_the_runs_user(self):
		agent = self.make_agent("Runtime Queue Agent")
		self.llm.queue("Published.")
		with patch.object(frappe, "publish_realtime", wraps=frappe.publish_realtime) as publish:
			result = run_agent_sync(agent, "Tell everyone", now=1)
		published = [
			(call.args[1]["status"], call.kwargs.get("user"))
			for call in publish.call_args_list
			if call.args[0] == "agent_run_status" and call.args[1]["agent_run_id"] == result["agent_run_id"]
		]
		self.assertEqual(
			published,
			[("Queued", "Administrator"), ("Started", "Administrator"), ("Success", "Administrator")],
		)

	def test_run_immediately_agents_answer_without_now(self):
		agent = self.make_agent("Runtime Immediate Agent", run_immediately=1)
		self.llm.queue("Right away.")
		result = run_agent_sync(agent, "Go")
		self.assertEqual((result["success"], result["response"]), (True, "Right away."))

	def test_the_conversation_continues_with_its_history(self):
		agent = self.make_agent("Runtime History Agent")
		self.llm.queue("Nice to meet you, Ada.", "Your name is Ada.")
		first = run_agent_sync(agent, "My name is Ada.", channel_id="web", external_id="tab-1", now=1)
		second = run_agent_sync(agent, "What is my name?", channel_id="web", external_id="tab-1", now=1)
		self.assertEqual(first["conversation_id"], second["conversation_id"])
		self.assertEqual(
			self.llm.chat_requests[-1]["body"]["messages"][1:],
			[
				{"role": "user", "content": "My name is Ada."},
				{"role": "assistant", "content": "Nice to meet you, Ada."},
				{"role": "user", "content": "What is my name?"},
			],
		)
		runs = frappe.get_all(
			"Agent Run",
			filters={"conversation": first["conversation_id"]},
			pluck="sequence",
			order_by="sequence",
		)
		self.assertEqual(runs, [1, 2])

	def test_without_persist_conversation_no_history_is_sent(self):
		agent = self.make_agent("Runtime Forgetful Agent", persist_conversation=0)
		self.llm.queue("One.", "Two.")
		run_agent_sync(agent, "first", now=1)
		run_agent_sync(agent, "second", now=1)
		self.assertEqual(
			self.llm.chat_requests[-1]["body"]["messages"][1:], [{"role": "user", "content": "second"}]
		)

	def test_instructions_from_an_agent_prompt_pinned_to_its_version(self):
		v1 = frappe.get_doc(
			{"doctype": "Agent Prompt", "title": "Runtime Pinned Prompt", "prompt_body": "Version one."}
		).insert(ignore_permissions=True)
		v2 = frappe.get_doc(
			{
				"doctype": "Agent Prompt",
				"title": "Runtime Pinned Prompt",
				"prompt_body": "Version two.",
				"previous_version": v1.name,
			}
		).insert(ignore_permissions=True)
		try:
			agent = self.make_agent(
				"Runtime Prompt Agent", prompt_mode="Template", agent_prompt=v1.name, prompt_version_locked=1
			)
			self.assertEqual(AgentManager(agent).get_instructions(), "Version one.")
			self.llm.queue("ok")
			run_agent_sync(agent, "hi", now=1)
			self.assertEqual(self.llm.chat_requests[-1]["body"]["messages"][0]["content"], "Version one.")

			doc = frappe.get_doc("Agent", agent)
			doc.prompt_version_locked = 0
			doc.save(ignore_permissions=True)
			self.assertEqual(AgentManager(agent).get_instructions(), "Version two.")
		finally:
			frappe.db.delete("Agent Prompt", {"name": ("in", [v1.name, v2.name])})
			frappe.db.commit()

	def test_conversation_data_is_injected_into_the_system_prompt(self):
		agent = self.make_agent(
			"Runtime Memory Agent", enable_conversation_data=1, inject_conversation_data=1
		)
		self.llm.queue("first", "second")
		first = run_agent_sync(agent, "remember", now=1)
		from huf.ai.conversation.conversation_data import set_conversation_data

		set_conversation_data("favourite_colour", "green", conversation=first["conversation_id"])
		frappe.db.commit()
		run_agent_sync(agent, "what colour?", conversation_id=first["conversation_id"], now=1)
		system = self.llm.chat_requests[-1]["body"]["messages"][0]["content"]
		self.assertIn("You are a test agent.", system)
		self.assertIn("favourite_colour: green", system)

	def test_summarize_strategy_runs_after_the_run(self):
		agent = self.make_agent("Runtime Summary Agent", context_strategy="Summarize", history_limit=2)
		self.llm.queue("Hello Ada.", "You like tea.", "Ada introduced herself and likes tea.")
		first = run_agent_sync(agent, "I am Ada.", now=1)
		run_agent_sync(agent, "I like tea.", conversation_id=first["conversation_id"], now=1)
		self.assertTrue(wait_for_jobs(120))
		summary = frappe.db.get_value("Agent Conversation", first["conversation_id"], "summary")
		self.assertEqual(summary, "Ada introduced herself and likes tea.")
		self.assertIn("I am Ada.", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))

	def test_a_run_started_inside_a_run_of_the_same_conversation_is_queued(self):
		agent = self.make_agent("Runtime Plain Agent")
		follow_ups = []

		def follow_up(args, context):
			follow_ups.append(
				run_agent_sync(
					context.agent, "follow-up from a tool", conversation_id=context.conversation, now=1
				)
			)
			return "queued"

		self.llm.queue(
			Reply(tool_calls=[tool_call("follow_up", {}, "call_f")]),
			Reply(content="Outer done."),
			Reply(content="Follow-up done."),
		)
		with registered_tools(Tool("follow_up", "Queue a follow-up", handler=follow_up), agent=agent):
			outer = run_agent_sync(agent, "start", now=1)
		self.assertEqual(outer["response"], "Outer done.")
		self.assertTrue(follow_ups[0]["queued"])  # waiting for its turn inside the outer run would deadlock
		# nobody waits for it inline, so the drainer runs it once the outer run has let go of the conversation
		run = follow_ups[0]["agent_run_id"]
		wait_until(
			lambda: frappe.db.get_value("Agent Run", run, "status") not in ("Queued", "Started"),
			120,
			message="the follow-up run was never run",
		)
		status = get_agent_run_status(run)
		self.assertEqual(
			(status["status"], status["response"], status["sequence"]), ("Success", "Follow-up done.", 2)
		)

	def test_empty_prompt_is_refused(self):
		agent = self.make_agent("Runtime Plain Agent")
		with self.assertRaises(frappe.ValidationError):
			run_agent_sync(agent, "   ", now=1)

	def test_only_agent_editors_may_choose_another_model(self):
		agent = self.make_agent("Runtime Plain Agent")
		make_runtime_model("runtime-other-model")
		frappe.db.commit()
		with self.set_user(ALICE), self.assertRaises(frappe.PermissionError):
			run_agent_sync(agent, "hi", model="runtime-other-model", now=1)
		self.llm.queue("from the other model")
		result = run_agent_sync(agent, "hi", model="runtime-other-model", now=1)
		self.assertEqual(result["response"], "from the other model")
		self.assertEqual(self.llm.chat_requests[-1]["body"]["model"], "runtime-other-model")
		self.assertEqual(
			frappe.db.get_value("Agent Run", result["agent_run_id"], "model"), "runtime-other-model"
		)


class TestAccess(RuntimeTestCase):
	users = (
		(ALICE, ("Huf User",)),
		(BOB, ("Huf User",)),
		(VIEWER, ("Huf Viewer",)),
		(MANAGER, ("Huf Manager",)),
	)

	def test_disabled_agents_refuse(self):
		agent = self.make_agent("Runtime Disabled Agent", disabled=1)
		with self.assertRaises(frappe.ValidationError) as caught:
			run_agent_sync(agent, "hi", now=1)
		self.assertIn("disabled", str(caught.exception))
		self.assertEqual(self.llm.chat_requests, [])

	def test_unknown_agent(self):
		with self.assertRaises(frappe.DoesNotExistError):
			run_agent_sync("No Such Runtime Agent", "hi", now=1)

	def test_guests_only_with_allow_guest(self):
		closed = self.make_agent("Runtime Members Agent")
		open_ = self.make_agent("Runtime Public Agent", allow_guest=1)
		with self.set_user("Guest"):
			with self.assertRaises(frappe.PermissionError):
				run_agent_sync(closed, "hi", now=1)
			self.llm.queue("Hello guest.")
			result = run_agent_sync(open_, "hi", now=1)
			self.assertEqual(result["response"], "Hello guest.")
			self.assertTrue(result["session_id"].startswith("chat:guest-"))
			# the guest polls with the session id it got; without it the run stays hidden
			status = get_agent_run_status(result["agent_run_id"], session_id=result["session_id"])
			self.assertEqual(status["status"], "Success")
			with self.assertRaises(frappe.PermissionError):
				get_agent_run_status(result["agent_run_id"])
			# another guest session cannot continue the conversation
			with self.assertRaises(frappe.PermissionError):
				run_agent_sync(open_, "again", conversation_id=result["conversation_id"], now=1)
			# a queued guest run is drained as the guest, in the guest's own conversation
			self.llm.queue("Later, guest.")
			queued = run_agent_sync(open_, "later", external_id=result["session_id"].split(":", 1)[1])
			self.assertEqual(queued["conversation_id"], result["conversation_id"])
			self.assertTrue(wait_for_jobs(120))
			status = get_agent_run_status(queued["agent_run_id"], session_id=result["session_id"])
			self.assertEqual((status["status"], status["response"]), ("Success", "Later, guest."))

	def test_allowed_users_and_roles_restrict_an_agent(self):
		agent = self.make_agent("Runtime Restricted Agent", agent_user=[{"user": ALICE}])
		self.llm.queue("hi Alice")
		with self.set_user(ALICE):
			self.assertTrue(run_agent_sync(agent, "hi", now=1)["success"])
		with self.set_user(BOB), self.assertRaises(frappe.PermissionError):
			run_agent_sync(agent, "hi", now=1)
		by_role = self.make_agent("Runtime Role Agent", agent_role=[{"role": "Huf Manager"}])
		with self.set_user(BOB), self.assertRaises(frappe.PermissionError):
			run_agent_sync(by_role, "hi", now=1)
		self.llm.queue("hi manager")
		with self.set_user(MANAGER):
			self.assertTrue(run_agent_sync(by_role, "hi", now=1)["success"])

	def test_huf_viewers_cannot_run_agents(self):
		agent = self.make_agent("Runtime Plain Agent")
		with self.set_user(VIEWER), self.assertRaises(frappe.PermissionError):
			run_agent_sync(agent, "hi", now=1)
		self.assertEqual(self.llm.chat_requests, [])

	def test_a_user_cannot_continue_or_read_another_users_conversation(self):
		agent = self.make_agent("Runtime Private Agent")
		self.llm.queue("Alice's secret answer")
		with self.set_user(ALICE):
			alices = run_agent_sync(agent, "my secret", channel_id="chat", external_id="alice-tab", now=1)
		with self.set_user(BOB):
			with self.assertRaises(frappe.PermissionError):
				run_agent_sync(agent, "tell me", conversation_id=alices["conversation_id"], now=1)
			with self.assertRaises(frappe.PermissionError):
				get_agent_run_status(alices["agent_run_id"])
			# a forged session id lands in a new conversation of Bob's own
			self.llm.queue("Bob's answer")
			bobs = run_agent_sync(agent, "tell me", channel_id="chat", external_id="alice-tab", now=1)
		self.assertNotEqual(bobs["conversation_id"], alices["conversation_id"])
		self.assertNotIn("my secret", json.dumps(self.llm.chat_requests[-1]["body"]))
		with self.set_user(ALICE):
			self.assertEqual(get_agent_run_status(alices["agent_run_id"])["status"], "Success")


class TestSecrets(RuntimeTestCase):
	def test_the_api_key_never_leaves_the_provider_call(self):
		agent = self.make_agent("Runtime Secret Agent")
		log_records = []
		handler = logging.Handler()
		handler.emit = lambda record: log_records.append(record.getMessage())
		logging.getLogger().addHandler(handler)
		try:
			self.llm.queue("fine")
			ok = run_agent_sync(agent, "hi", now=1)
			self.llm.queue(
				*[Reply(status=500, error=f"upstream broke, key {API_KEY}", headers={"Retry-After": "0"})] * 3
			)
			failed = run_agent_sync(agent, "hi again", now=1)
		finally:
			logging.getLogger().removeHandler(handler)
		self.assertEqual(self.llm.chat_requests[0]["headers"]["authorization"], f"Bearer {API_KEY}")
		self.assertFalse([name for name, value in os.environ.items() if API_KEY in value])
		self.assertNotIn(API_KEY, json.dumps([ok, failed], default=str))
		run = frappe.get_doc("Agent Run", failed["agent_run_id"])
		self.assertEqual(run.status, "Failed")
		self.assertNotIn(API_KEY, json.dumps(run.as_dict(), default=str))
		self.assertFalse([m for m in log_records if API_KEY in m])
		for name in ("huf.log", "frappe.log"):
			path = get_site_path("logs", name)
			if os.path.exists(path):
				with open(path) as f:
					self.assertNotIn(API_KEY, f.read())
		errors = frappe.get_all("Error Log", fields=["error"], limit=50, order_by="creation desc")
		self.assertFalse([e for e in errors if API_KEY in (e.error or "")])


class TestStream(RuntimeTestCase):
	def test_streamed_deltas_then_complete(self):
		agent = self.make_agent("Runtime Stream Agent")
		self.llm.queue(Reply(content="The quick brown fox jumps over", chunk_size=5))
		stream = front_door.stream(RunRequest(agent, "Tell me about foxes", channel="sse", external_id="s1"))
		received = list(stream)
		for event in received:
			validate_event(event)
		types = [event["type"] for event in received]
		self.assertEqual(types[:2], ["run_status", "run_status"])
		self.assertEqual(
			[e["status"] for e in received if e["type"] == "run_status"], ["Queued", "Started", "Success"]
		)
		self.assertEqual(types[-2:], ["run_status", "complete"])
		deltas = [event["content"] for event in received if event["type"] == "delta"]
		self.assertEqual(len(deltas), 6)
		self.assertEqual("".join(deltas), "The quick brown fox jumps over")
		complete = received[-1]
		self.assertEqual(complete["full_response"], "The quick brown fox jumps over")
		self.assertEqual(complete["session_id"], "sse:s1")
		self.assertEqual(frappe.db.get_value("Agent Run", complete["agent_run_id"], "status"), "Success")
		self.assertIs(self.llm.chat_requests[-1]["body"]["stream"], True)

	def test_access_is_checked_before_any_event(self):
		agent = self.make_agent("Runtime Stream Agent", allow_guest=0)
		with self.set_user("Guest"), self.assertRaises(frappe.PermissionError):
			front_door.stream(RunRequest(agent, "hi"))
		self.assertEqual(frappe.db.count("Agent Run", {"agent": agent}), 0)

	def test_closing_the_stream_cancels_the_run(self):
		agent = self.make_agent("Runtime Stream Agent")
		self.llm.queue(Reply(content="a b c d e f g h", chunk_size=2))
		stream = front_door.stream(RunRequest(agent, "hi"))
		for event in stream:
			if event["type"] == "delta":
				break
		stream.close()
		run = frappe.get_all("Agent Run", filters={"agent": agent}, fields=["status", "error_message"])[0]
		self.assertEqual(run.status, "Cancelled")
		self.assertIn("closed", run.error_message)
		from huf.ai.runtime import locks

		conversation = frappe.get_all("Agent Conversation", filters={"agent": agent}, pluck="name")[0]
		self.assertFalse(locks.is_locked(conversation))
