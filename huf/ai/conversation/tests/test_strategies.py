"""Context strategies: None, FIFO and Summarize (the real LiteLLM over HTTP to a scripted server)."""

import frappe
from frappe.utils import now_datetime

from huf.ai.conversation.manager import ConversationManager
from huf.ai.conversation.strategies import apply_context_strategy, needs_summary, schedule_context_strategy
from huf.ai.conversation.summarizer import DEFAULT_SUMMARY_PROMPT, summary_prompt
from huf.ai.conversation.tests.test_conversation_manager import delete_created_since
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.llm_server import Reply, ScriptedLLM

PROVIDER = "Scripted Summaries"
SUMMARY_MODEL = "summary-model"


def weather_call(call_id: str) -> dict:
	return {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}


class StrategyTestCase(HufTestCase):
	llm: ScriptedLLM

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())

	def setUp(self):
		self.started = now_datetime()
		self.llm.reset()
		if not frappe.db.exists("AI Provider", PROVIDER):
			frappe.get_doc(
				{"doctype": "AI Provider", "provider_name": PROVIDER, "api_base": self.llm.api_base}
			).insert(ignore_permissions=True)
		frappe.db.set_value("AI Provider", PROVIDER, "api_base", self.llm.api_base)
		if not frappe.db.exists("AI Model", SUMMARY_MODEL):
			frappe.get_doc({"doctype": "AI Model", "model_name": SUMMARY_MODEL, "provider": PROVIDER}).insert(
				ignore_permissions=True
			)

	def conversation_with(self, agent_name: str, texts: list[str], **agent_values):
		make_agent(agent_name, **agent_values)
		manager = ConversationManager(agent_name, "api", frappe.generate_hash(length=8))
		conversation = manager.get_or_create_conversation(title="Strategy")
		for number, text in enumerate(texts):
			manager.add_message(conversation, "user" if number % 2 == 0 else "agent", text)
		return manager, conversation


class TestNoneAndFifo(StrategyTestCase):
	def test_none_keeps_every_message(self):
		texts = [f"message {n}" for n in range(1, 31)]
		manager, conversation = self.conversation_with(
			"Strategy None", texts, context_strategy="None", history_limit=4
		)
		history = manager.get_conversation_history(conversation.name)
		self.assertEqual([m["content"] for m in history], texts)

	def test_fifo_keeps_the_newest_messages_without_splitting_a_tool_group(self):
		manager, conversation = self.conversation_with(
			"Strategy FIFO", [f"message {n}" for n in range(1, 7)], context_strategy="FIFO", history_limit=4
		)
		manager.add_message(conversation, "agent", "", kind="Tool Call", tool_calls=[weather_call("call_f")])
		manager.add_message(conversation, "tool", "22 °C", kind="Tool Result", tool_call_id="call_f")
		manager.add_message(conversation, "agent", "It is 22 °C.")
		manager.add_message(conversation, "user", "thanks")
		history = manager.get_conversation_history(conversation.name)
		self.assertEqual(
			history,
			[
				{"role": "assistant", "content": None, "tool_calls": [weather_call("call_f")]},
				{"role": "tool", "tool_call_id": "call_f", "content": "22 °C"},
				{"role": "assistant", "content": "It is 22 °C."},
				{"role": "user", "content": "thanks"},
			],
		)
		manager.add_message(conversation, "agent", "You're welcome.")
		history = manager.get_conversation_history(conversation.name)
		# 4 newest would start at the tool result: the cut moves past the whole group instead
		self.assertEqual([m["content"] for m in history], ["It is 22 °C.", "thanks", "You're welcome."])
		self.assertEqual(frappe.db.count("Agent Message", {"conversation": conversation.name}), 11)
		self.assertFalse(needs_summary(conversation.name))


class TestSummarize(StrategyTestCase):
	def summarizing_agent_conversation(self, name: str, count: int = 8, **values):
		values = {
			"context_strategy": "Summarize",
			"history_limit": 4,
			"summary_ratio": 0.5,
			"summary_model": SUMMARY_MODEL,
			"summary_prompt": "Summarise for the assistant:\n{summary_data}\nEND OF TRANSCRIPT",
			**values,
		}
		return self.conversation_with(name, [f"message {n}" for n in range(1, count + 1)], **values)

	def test_older_half_is_summarised_by_the_summary_model(self):
		manager, conversation = self.summarizing_agent_conversation("Strategy Summarize")
		self.assertTrue(needs_summary(conversation.name))
		self.llm.queue(
			Reply(content="The user sent four numbered messages.", prompt_tokens=50, completion_tokens=7)
		)

		summary = manager.summarize_conversation(conversation.name)

		self.assertEqual(summary, "The user sent four numbered messages.")
		request = self.llm.chat_requests[-1]["body"]
		self.assertEqual(request["model"], SUMMARY_MODEL)
		prompt = request["messages"][0]["content"]
		self.assertTrue(
			prompt.startswith("Summarise for the assistant:\nUser: message 1\nAssistant: message 2")
		)
		self.assertTrue(prompt.endswith("Assistant: message 4\nEND OF TRANSCRIPT"))
		self.assertNotIn("message 5", prompt)
		stored = frappe.db.get_value(
			"Agent Conversation",
			conversation.name,
			["summary", "summarized_until", "total_tokens"],
			as_dict=True,
		)
		self.assertEqual((stored.summary, stored.summarized_until, stored.total_tokens), (summary, 4, 57))

		history = manager.get_conversation_history(conversation.name)
		self.assertEqual(history[0]["role"], "system")
		self.assertIn("The user sent four numbered messages.", history[0]["content"])
		self.assertEqual([m["content"] for m in history[1:]], [f"message {n}" for n in range(5, 9)])

		self.assertIsNone(apply_context_strategy(conversation.name))  # nothing new to fold in
		self.assertEqual(len(self.llm.chat_requests), 1)

	def test_next_summary_builds_on_the_previous_one(self):
		manager, conversation = self.summarizing_agent_conversation("Strategy Summarize Twice")
		self.llm.queue("First summary.", "Second summary.")
		apply_context_strategy(conversation.name)
		for number in range(9, 13):
			manager.add_message(conversation, "user", f"message {number}")
		self.assertEqual(apply_context_strategy(conversation.name), "Second summary.")
		prompt = self.llm.chat_requests[-1]["body"]["messages"][0]["content"]
		self.assertIn("Summary of the conversation so far:\nFirst summary.", prompt)
		self.assertIn("message 5", prompt)
		self.assertNotIn("message 1\n", prompt)

	def test_summary_split_keeps_tool_groups_whole(self):
		manager, conversation = self.summarizing_agent_conversation("Strategy Summarize Tools", count=3)
		manager.add_message(conversation, "agent", "", kind="Tool Call", tool_calls=[weather_call("call_s")])
		manager.add_message(conversation, "tool", "22 °C", kind="Tool Result", tool_call_id="call_s")
		for number in range(6, 9):
			manager.add_message(conversation, "user", f"message {number}")
		self.llm.queue("Summary.")
		apply_context_strategy(conversation.name)  # 8 messages * 0.5 = 4 would cut between call and result
		self.assertEqual(frappe.db.get_value("Agent Conversation", conversation.name, "summarized_until"), 3)
		history = manager.get_conversation_history(conversation.name)
		self.assertEqual(
			history[1], {"role": "assistant", "content": None, "tool_calls": [weather_call("call_s")]}
		)

	def test_failed_summary_call_changes_nothing_and_is_logged(self):
		_manager, conversation = self.summarizing_agent_conversation("Strategy Summarize Fails")
		self.llm.queue(Reply(status=400, error="model not available"))
		self.assertIsNone(apply_context_strategy(conversation.name))
		self.assertIsNone(frappe.db.get_value("Agent Conversation", conversation.name, "summary"))
		errors = frappe.get_all(
			"Error Log", filters={"reference_name": conversation.name}, fields=["error"], pluck="error"
		)
		self.assertTrue(errors and "model not available" in errors[0])

	def test_summary_prompt_from_local_template_or_default(self):
		agent = make_agent("Strategy Prompts", summary_prompt="")
		self.assertEqual(summary_prompt(agent), DEFAULT_SUMMARY_PROMPT)
		v1 = frappe.get_doc(
			{
				"doctype": "Agent Summary Prompt",
				"title": "Support summary",
				"prompt_body": "V1 {summary_data}",
			}
		).insert()
		v2 = frappe.get_doc(
			{
				"doctype": "Agent Summary Prompt",
				"title": "Support summary",
				"prompt_body": "V2 {summary_data}",
				"previous_version": v1.name,
			}
		).insert()
		agent.update(
			{
				"summary_prompt_mode": "Template",
				"summary_prompt_template": v1.name,
				"summary_prompt_version_locked": 1,
				"summary_template_version_at_attach": 1,
			}
		)
		self.assertEqual(summary_prompt(agent), "V1 {summary_data}")
		agent.summary_prompt_version_locked = 0
		self.assertEqual(summary_prompt(agent), "V2 {summary_data}")
		self.assertEqual(v2.version, 2)

	def test_summary_runs_in_the_background_after_a_run(self):
		manager, conversation = self.summarizing_agent_conversation("Strategy Summarize Job")
		self.llm.queue("Background summary.")
		frappe.db.commit()
		try:
			self.assertTrue(schedule_context_strategy(conversation.name))
			frappe.db.commit()  # the job is enqueued after commit
			self.assertTrue(wait_for_jobs(timeout=120))
			self.assertEqual(
				frappe.db.get_value("Agent Conversation", conversation.name, "summary"), "Background summary."
			)
		finally:
			frappe.db.delete("Agent Message", {"conversation": conversation.name})
			frappe.db.delete("Agent Conversation", {"name": conversation.name})
			delete_created_since(
				self.started,
				("Agent", "Strategy Summarize Job"),
				("AI Model", SUMMARY_MODEL),
				("AI Model", "test-model"),
				("AI Provider", PROVIDER),
				("AI Provider", "Test Provider"),
			)
			frappe.db.commit()
		self.assertEqual(self.llm.chat_requests[-1]["body"]["model"], SUMMARY_MODEL)
