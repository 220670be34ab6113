"""Agent Run Feedback: thumbs up/down on agent answers, only on conversations the user can read."""

import frappe

from huf.ai.conversation.manager import ConversationManager
from huf.api.feedback import get_message_feedback, rate_message
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user

ALICE = "feedback-alice@example.com"
BOB = "feedback-bob@example.com"
MANAGER = "feedback-manager@example.com"
AGENT = "Feedback Test Agent"


class TestAgentRunFeedback(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(ALICE, "Huf User")
		make_user(BOB, "Huf User")
		make_user(MANAGER, "Huf Manager")

	def setUp(self):
		make_agent(AGENT)
		with self.set_user(ALICE):
			manager = ConversationManager(AGENT)
			self.conversation = manager.get_or_create_conversation()
			self.question = manager.add_message(self.conversation, "user", "What is 2 + 2?")
			self.answer = manager.add_message(self.conversation, "agent", "4")
			self.tool_call = manager.add_message(
				self.conversation,
				"agent",
				"",
				kind="Tool Call",
				tool_calls=[{"id": "c1", "type": "function", "function": {"name": "add", "arguments": "{}"}}],
			)

	def test_owner_rates_an_answer_and_rating_again_replaces_it(self):
		with self.set_user(ALICE):
			first = rate_message(self.answer.name, "up", "Correct")
			second = rate_message(self.answer.name, "Thumbs Down", "Changed my mind")
			mine = get_message_feedback(self.answer.name)
		self.assertEqual(first["name"], second["name"])
		self.assertEqual(mine["feedback"], "Thumbs Down")
		self.assertEqual(mine["comments"], "Changed my mind")
		rows = frappe.get_all(
			"Agent Run Feedback",
			filters={"agent_message": self.answer.name},
			fields=["owner", "feedback", "agent"],
		)
		self.assertEqual(rows, [{"owner": ALICE, "feedback": "Thumbs Down", "agent": AGENT}])

	def test_another_user_cannot_rate_or_read_feedback_on_a_conversation_they_cannot_read(self):
		with self.set_user(ALICE):
			rate_message(self.answer.name, "up")
		with self.set_user(BOB):
			with self.assertRaisesRegex(frappe.PermissionError, "not found or access denied"):
				rate_message(self.answer.name, "down", "spam")
			with self.assertRaises(frappe.PermissionError):
				get_message_feedback(self.answer.name)
			with self.assertRaisesRegex(frappe.PermissionError, "not found or access denied"):
				rate_message("no-such-message", "down")
		self.assertEqual(frappe.db.count("Agent Run Feedback", {"agent_message": self.answer.name}), 1)

	def test_a_manager_who_can_read_every_conversation_may_rate(self):
		with self.set_user(MANAGER):
			rate_message(self.answer.name, "down", "Too short")
		with self.set_user(ALICE):
			self.assertIsNone(get_message_feedback(self.answer.name))  # each user sees their own rating
		self.assertEqual(frappe.db.count("Agent Run Feedback", {"agent_message": self.answer.name}), 1)

	def test_only_agent_answers_can_be_rated(self):
		with self.set_user(ALICE):
			with self.assertRaisesRegex(frappe.ValidationError, "Only the agent's answers"):
				rate_message(self.question.name, "up")
			with self.assertRaisesRegex(frappe.ValidationError, "Only the agent's answers"):
				rate_message(self.tool_call.name, "up")

	def test_feedback_value_must_be_up_or_down(self):
		with self.set_user(ALICE):
			with self.assertRaisesRegex(frappe.ValidationError, "Thumbs Up or Thumbs Down"):
				rate_message(self.answer.name, "meh")

	def test_direct_insert_is_checked_too(self):
		doc = frappe.get_doc(
			{"doctype": "Agent Run Feedback", "agent_message": self.answer.name, "feedback": "Thumbs Up"}
		)
		with self.set_user(BOB):
			with self.assertRaises(frappe.PermissionError):
				doc.insert(ignore_permissions=True)
