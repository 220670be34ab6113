"""ConversationManager: ownership, forged ids, guests, race-free numbering, totals, policies, pairing."""

import json
import threading

import frappe
from frappe.utils import now_datetime

from huf.ai.conversation.manager import ConversationManager
from huf.ai.conversation.title import default_title
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.runs import SiteContext

ALICE = "conv-alice@example.com"
BOB = "conv-bob@example.com"
MANAGER = "conv-manager@example.com"
VIEWER = "conv-viewer@example.com"
AGENT = "Conversation Test Agent"


def delete_created_since(started, *records: tuple[str, str]) -> None:
	"""Delete fixtures a test had to commit (those created since `started`)."""
	for doctype, name in records:
		created = frappe.db.get_value(doctype, name, "creation")
		if created and created >= started:
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)


def weather_call(call_id: str, city: str = "Pune") -> dict:
	return {
		"id": call_id,
		"type": "function",
		"function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
	}


class TestConversationOwnership(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(ALICE, "Huf User")
		make_user(BOB, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(VIEWER, "Huf Viewer")

	def setUp(self):
		self.agent = make_agent(AGENT)

	def test_session_id_finds_the_callers_active_conversation(self):
		with self.set_user(ALICE):
			manager = ConversationManager(AGENT, "web", "tab-1")
			first = manager.get_or_create_conversation()
			again = ConversationManager(AGENT, "web", "tab-1").get_or_create_conversation()
			other_tab = ConversationManager(AGENT, "web", "tab-2").get_or_create_conversation()
		self.assertEqual((first.session_id, first.user, first.is_active), ("web:tab-1", ALICE, 1))
		self.assertEqual(again.name, first.name)
		self.assertNotEqual(other_tab.name, first.name)
		self.assertEqual(first.title, default_title(AGENT))

	def test_forged_session_id_does_not_reach_another_users_conversation(self):
		with self.set_user(ALICE):
			alices = ConversationManager(AGENT, "chat", ALICE).get_or_create_conversation()
			ConversationManager(AGENT, "chat", ALICE).add_message(alices, "user", "my secret plan")
		with self.set_user(BOB):
			forged = ConversationManager(AGENT, "chat", ALICE).get_or_create_conversation()
			self.assertNotEqual(forged.name, alices.name)
			self.assertEqual(forged.user, BOB)
			self.assertEqual(
				ConversationManager(AGENT, "chat", ALICE).get_conversation_history(forged.name), []
			)

	def test_forged_conversation_id_is_refused_like_a_missing_one(self):
		with self.set_user(ALICE):
			alices = ConversationManager(AGENT).get_or_create_conversation()
		with self.set_user(BOB):
			manager = ConversationManager(AGENT)
			with self.assertRaisesRegex(frappe.PermissionError, "not found or access denied"):
				manager.get_or_create_conversation(conversation_id=alices.name)
			with self.assertRaisesRegex(frappe.PermissionError, "not found or access denied"):
				manager.get_or_create_conversation(conversation_id="no-such-conversation")
			with self.assertRaises(frappe.PermissionError):
				manager.add_message(alices.name, "user", "injected")
			with self.assertRaises(frappe.PermissionError):
				manager.get_conversation_history(alices.name)
		self.assertEqual(frappe.db.count("Agent Message", {"conversation": alices.name}), 0)

	def test_conversation_of_another_agent_is_refused(self):
		other = make_agent("Conversation Other Agent")
		with self.set_user(ALICE):
			conversation = ConversationManager(other.name).get_or_create_conversation()
			with self.assertRaises(frappe.PermissionError):
				ConversationManager(AGENT).get_or_create_conversation(conversation_id=conversation.name)

	def test_manager_may_continue_a_users_conversation_and_viewer_may_not_write(self):
		with self.set_user(ALICE):
			alices = ConversationManager(AGENT).get_or_create_conversation()
		with self.set_user(MANAGER):
			manager = ConversationManager(AGENT)
			self.assertEqual(
				manager.get_or_create_conversation(conversation_id=alices.name).name, alices.name
			)
			manager.add_message(alices.name, "system", "Escalated to a human.")
		with self.set_user(VIEWER):
			with self.assertRaises(frappe.PermissionError):
				ConversationManager(AGENT).get_or_create_conversation()

	def test_guests_need_allow_guest_and_their_own_external_id(self):
		with self.set_user("Guest"):
			with self.assertRaisesRegex(frappe.PermissionError, "not available to guests"):
				ConversationManager(AGENT).get_or_create_conversation()
		self.agent.db_set("allow_guest", 1)
		frappe.clear_document_cache("Agent", AGENT)
		with self.set_user("Guest"):
			first = ConversationManager(AGENT).get_or_create_conversation()
			second = ConversationManager(AGENT).get_or_create_conversation()
			self.assertNotEqual(first.name, second.name)  # no shared "chat:Guest" history
			self.assertTrue(first.session_id.startswith("chat:guest-"))

			mine = ConversationManager(AGENT, "widget", "token-7f3a9c1e5b2d")
			conversation = mine.get_or_create_conversation()
			mine.add_message(conversation, "user", "hi")
			again = ConversationManager(AGENT, "widget", "token-7f3a9c1e5b2d")
			self.assertEqual(
				again.get_or_create_conversation(conversation_id=conversation.name).name, conversation.name
			)
			with self.assertRaises(frappe.PermissionError):
				ConversationManager(AGENT, "widget", "another-token").get_or_create_conversation(
					conversation_id=conversation.name
				)


class TestAddMessage(HufTestCase):
	def setUp(self):
		self.agent = make_agent(AGENT)

	def test_indexes_and_running_totals(self):
		manager = ConversationManager(AGENT, "api", "totals")
		conversation = manager.get_or_create_conversation(title="Totals")
		manager.add_message(conversation, "user", "hello")
		reply = manager.add_message(
			conversation.name,
			"assistant",
			"hi there",
			usage={"input_tokens": 120, "output_tokens": 30},
			cost=0.0025,
		)
		self.assertEqual((reply.role, reply.conversation_index, reply.agent), ("agent", 2, AGENT))
		totals = frappe.get_doc("Agent Conversation", conversation.name)
		self.assertDocumentEqual(
			{
				"total_messages": 2,
				"total_input_tokens": 120,
				"total_output_tokens": 30,
				"total_tokens": 150,
				"total_cost": 0.0025,
				"title": "Totals",
			},
			totals,
		)

	def test_numbering_continues_after_messages_inserted_elsewhere(self):
		manager = ConversationManager(AGENT, "api", "legacy")
		conversation = manager.get_or_create_conversation()
		for text in ("a", "b", "c"):
			frappe.get_doc(
				{
					"doctype": "Agent Message",
					"conversation": conversation.name,
					"role": "user",
					"content": text,
				}
			).insert()
		self.assertEqual(manager.add_message(conversation, "user", "d").conversation_index, 4)

	def test_ten_threads_get_unique_consecutive_indexes(self):
		started = now_datetime()
		agent_name = "Conversation Thread Agent"
		make_agent(agent_name)
		conversation = ConversationManager(agent_name, "api", "threads").get_or_create_conversation()
		frappe.db.commit()
		context = SiteContext()
		barrier = threading.Barrier(10)
		errors = []

		def add(number: int) -> None:
			try:
				with context:
					manager = ConversationManager(agent_name, "api", "threads")
					barrier.wait(timeout=10)
					manager.add_message(
						conversation.name,
						"user",
						f"message {number}",
						usage={"input_tokens": 1, "output_tokens": 2},
						cost=0.5,
					)
			except Exception as exc:  # reported below
				errors.append(exc)

		threads = [threading.Thread(target=add, args=(n,)) for n in range(10)]
		try:
			for thread in threads:
				thread.start()
			for thread in threads:
				thread.join(timeout=60)
			self.assertEqual(errors, [])
			rows = frappe.get_all(
				"Agent Message",
				filters={"conversation": conversation.name},
				fields=["conversation_index", "content"],
			)
			self.assertEqual(sorted(row.conversation_index for row in rows), list(range(1, 11)))
			self.assertEqual(len({row.content for row in rows}), 10)
			totals = frappe.get_doc("Agent Conversation", conversation.name)
			self.assertDocumentEqual(
				{
					"total_messages": 10,
					"total_input_tokens": 10,
					"total_output_tokens": 20,
					"total_cost": 5.0,
				},
				totals,
			)
		finally:
			frappe.db.delete("Agent Message", {"conversation": conversation.name})
			frappe.db.delete("Agent Conversation", {"name": conversation.name})
			delete_created_since(
				started, ("Agent", agent_name), ("AI Model", "test-model"), ("AI Provider", "Test Provider")
			)
			frappe.db.commit()

	def test_auto_title_from_the_first_user_message(self):
		manager = ConversationManager(AGENT, "api", "title")
		conversation = manager.get_or_create_conversation()
		manager.add_message(
			conversation,
			"user",
			"  \nHow do I **reset** my password on the customer portal? It keeps failing",
		)
		manager.add_message(conversation, "user", "second question")
		title = frappe.db.get_value("Agent Conversation", conversation.name, "title")
		self.assertEqual(title, "How do I reset my password on the customer portal? It keeps failing")

		# markup around words goes, characters inside words stay (tool names, C#, sums)
		coder = ConversationManager(AGENT, "api", "title-code")
		coded = coder.get_or_create_conversation()
		coder.add_message(coded, "user", "## Why does `list_todos` skip C# tasks where 2*3 > 5?")
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", coded.name, "title"),
			"Why does list_todos skip C# tasks where 2*3 > 5?",
		)

		self.agent.db_set("autonaming_of_conversation_title", 0)
		frappe.clear_document_cache("Agent", AGENT)
		plain = ConversationManager(AGENT, "api", "no-title")
		untitled = plain.get_or_create_conversation()
		plain.add_message(untitled, "user", "Hello")
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", untitled.name, "title"), default_title(AGENT)
		)


class TestHistory(HufTestCase):
	def setUp(self):
		self.agent = make_agent(AGENT, context_strategy="None")
		self.manager = ConversationManager(AGENT, "api", f"history-{frappe.generate_hash(length=6)}")
		self.conversation = self.manager.get_or_create_conversation()

	def add(self, role, content, **kwargs):
		return self.manager.add_message(self.conversation, role, content, **kwargs)

	def test_context_policies(self):
		run = frappe.get_doc({"doctype": "Agent Run", "agent": AGENT, "prompt": "weather?"}).insert(
			ignore_permissions=True
		)
		artifact = frappe.get_doc(
			{
				"doctype": "Agent Context Artifact",
				"conversation": self.conversation.name,
				"payload_json": "{}",
			}
		).insert(ignore_permissions=True)
		self.add("user", "What is the weather in Pune?")
		self.add("agent", "", kind="Tool Call", tool_calls=[weather_call("call_1")], tool_call_id="call_1")
		self.add(
			"tool",
			"x" * 50_000,
			kind="Tool Result",
			tool_call_id="call_1",
			context_policy="include_reference",
			context_summary="22 °C and sunny",
			record_kind="tool_result",
			reference_doctype="Agent Context Artifact",
			reference_name=artifact.name,
		)
		self.add(
			"agent",
			"A very long answer " * 50,
			context_policy="include_summary",
			context_summary="Sunny, 22 °C.",
		)
		self.add("system", "internal note", context_policy="exclude")
		self.add("agent", "scratch work", context_policy="transient_only", run_name=run.name)
		self.add("agent", "fetched on demand", context_policy="include_on_demand")
		self.add("agent", "shown in the UI only", visibility="ui_only")
		self.add("user", "Thanks!", context_policy="include_full")

		history = self.manager.get_conversation_history(self.conversation.name)
		expected = [
			{"role": "user", "content": "What is the weather in Pune?"},
			{"role": "assistant", "content": None, "tool_calls": [weather_call("call_1")]},
			{
				"role": "tool",
				"tool_call_id": "call_1",
				"content": f"[tool_result: 22 °C and sunny · full content in Agent Context Artifact {artifact.name}]",
			},
			{"role": "assistant", "content": "Sunny, 22 °C."},
			{"role": "user", "content": "Thanks!"},
		]
		self.assertEqual(history, expected)
		during_run = self.manager.get_conversation_history(self.conversation.name, agent_run=run.name)
		self.assertEqual(
			during_run, expected[:4] + [{"role": "assistant", "content": "scratch work"}] + expected[4:]
		)

	def test_parallel_tool_calls_are_paired_with_their_results(self):
		self.add("user", "Weather in Pune and Goa?")
		self.add(
			"agent",
			"Checking both.",
			kind="Tool Call",
			tool_calls=[weather_call("call_a"), weather_call("call_b", "Goa")],
		)
		self.add("tool", '{"temp": 22}', kind="Tool Result", tool_call_id="call_a")
		self.add("tool", '{"temp": 30}', kind="Tool Result", tool_call_id="call_b")
		self.add("agent", "Pune 22, Goa 30.")
		history = self.manager.get_conversation_history(self.conversation.name)
		self.assertEqual(
			history[1:4],
			[
				{
					"role": "assistant",
					"content": "Checking both.",
					"tool_calls": [weather_call("call_a"), weather_call("call_b", "Goa")],
				},
				{"role": "tool", "tool_call_id": "call_a", "content": '{"temp": 22}'},
				{"role": "tool", "tool_call_id": "call_b", "content": '{"temp": 30}'},
			],
		)

	def test_tool_calls_rebuilt_from_agent_tool_call_records(self):
		record = frappe.get_doc(
			{
				"doctype": "Agent Tool Call",
				"conversation": self.conversation.name,
				"tool": "lookup_customer",
				"call_id": "call_rec",
				"tool_args": json.dumps({"id": 7}),
				"status": "Completed",
			}
		).insert(ignore_permissions=True)
		self.add("user", "Who is customer 7?")
		self.add("agent", "", kind="Tool Call", tool_call=record.name)  # legacy: no tool_calls payload
		self.add("tool", "ACME Ltd", kind="Tool Result", tool_call=record.name, tool_call_id="call_rec")
		expected_call = {
			"id": "call_rec",
			"type": "function",
			"function": {"name": "lookup_customer", "arguments": '{"id": 7}'},
		}
		history = self.manager.get_conversation_history(self.conversation.name)
		self.assertEqual(
			history[1:],
			[
				{"role": "assistant", "content": None, "tool_calls": [expected_call]},
				{"role": "tool", "tool_call_id": "call_rec", "content": "ACME Ltd"},
			],
		)
		# legacy combined rows: one assistant "Tool Result" row becomes the call and its result
		combined = {"role": "agent", "kind": "Tool Result", "content": "ACME Ltd", "tool_call": record.name}
		self.assertEqual(
			self.manager._message_to_context(combined),
			[
				{"role": "assistant", "content": None, "tool_calls": [expected_call]},
				{"role": "tool", "tool_call_id": "call_rec", "content": "ACME Ltd"},
			],
		)

	def test_excluded_tool_call_takes_its_results_with_it(self):
		self.add("user", "q")
		self.add("agent", "", kind="Tool Call", tool_calls=[weather_call("call_x")], context_policy="exclude")
		self.add("tool", "result", kind="Tool Result", tool_call_id="call_x")
		self.add("agent", "answer")
		self.assertEqual(
			self.manager.get_conversation_history(self.conversation.name),
			[{"role": "user", "content": "q"}, {"role": "assistant", "content": "answer"}],
		)

	def test_history_of_an_interrupted_run_is_repaired(self):
		self.add("user", "q")
		self.add("agent", "", kind="Tool Call", tool_calls=[weather_call("call_lost")])
		self.add("user", "are you there?")
		history = self.manager.get_conversation_history(self.conversation.name)
		self.assertEqual([m["role"] for m in history], ["user", "assistant", "tool", "user"])
		self.assertEqual(history[2]["tool_call_id"], "call_lost")
