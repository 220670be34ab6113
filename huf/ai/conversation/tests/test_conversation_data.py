"""Conversation data (memory) tools and their injection into the system prompt."""

import json

import frappe

from huf.ai.conversation.conversation_data import (
	delete_conversation_data,
	get_conversation_data,
	inject_conversation_data,
	load_conversation_data,
	set_conversation_data,
)
from huf.ai.conversation.manager import ConversationManager
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user

AGENT = "Memory Test Agent"
OWNER = "memory-owner@example.com"
STRANGER = "memory-stranger@example.com"


class TestConversationData(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(OWNER, "Huf User")
		make_user(STRANGER, "Huf User")

	def setUp(self):
		make_agent(AGENT, enable_conversation_data=1, inject_conversation_data=1)
		with self.set_user(OWNER):
			self.conversation = ConversationManager(AGENT).get_or_create_conversation().name

	def tearDown(self):
		frappe.flags.pop("huf_conversation", None)

	def test_set_get_load_and_delete(self):
		with self.set_user(OWNER):
			stored = set_conversation_data("city", "Pune", "The user's city", conversation=self.conversation)
			set_conversation_data("cart", {"items": 3}, inject=False, conversation=self.conversation)
			self.assertEqual((stored["value"], stored["inject"], stored["updated_by"]), ("Pune", True, OWNER))
			self.assertEqual(get_conversation_data("city", conversation=self.conversation)["value"], "Pune")
			self.assertFalse(get_conversation_data("missing", conversation=self.conversation)["found"])
			loaded = load_conversation_data(conversation=self.conversation)
			self.assertEqual(loaded["count"], 2)
			self.assertEqual(loaded["data"]["cart"]["value"], {"items": 3})
			self.assertTrue(delete_conversation_data("cart", conversation=self.conversation)["deleted"])
		raw = json.loads(frappe.db.get_value("Agent Conversation", self.conversation, "conversation_data"))
		self.assertEqual(list(raw), ["city"])

	def test_tools_act_on_the_conversation_being_run(self):
		frappe.flags.huf_conversation = self.conversation
		with self.set_user(OWNER):
			set_conversation_data("language", "Marathi")
			self.assertEqual(get_conversation_data("language")["value"], "Marathi")

	def test_another_users_conversation_is_refused(self):
		with self.set_user(STRANGER):
			with self.assertRaises(frappe.PermissionError):
				set_conversation_data("city", "Goa", conversation=self.conversation)
			with self.assertRaises(frappe.PermissionError):
				load_conversation_data(conversation=self.conversation)

	def test_disabled_for_agents_without_conversation_data(self):
		frappe.db.set_value("Agent", AGENT, "enable_conversation_data", 0)
		with self.assertRaisesRegex(frappe.ValidationError, "not enabled"):
			set_conversation_data("city", "Pune", conversation=self.conversation)

	def test_injected_into_the_system_prompt(self):
		set_conversation_data("city", "Pune", "The user's city", conversation=self.conversation)
		set_conversation_data("secret_plan", "hidden", inject=False, conversation=self.conversation)
		prompt = inject_conversation_data("You are helpful.", self.conversation)
		self.assertTrue(prompt.startswith("You are helpful.\n\n"))
		self.assertIn("- city: Pune (The user's city)", prompt)
		self.assertNotIn("secret_plan", prompt)

		frappe.db.set_value("Agent", AGENT, "inject_conversation_data", 0)
		self.assertEqual(inject_conversation_data("You are helpful.", self.conversation), "You are helpful.")

	def test_plain_values_stored_through_the_form_are_read(self):
		frappe.db.set_value("Agent Conversation", self.conversation, "conversation_data", '{"city": "Pune"}')
		self.assertEqual(get_conversation_data("city", conversation=self.conversation)["value"], "Pune")
		self.assertIn("- city: Pune", inject_conversation_data("", self.conversation))
