"""api_get_conversation_data / api_set_conversation_data: who may read and write, value types, injection."""

import json

import frappe

from huf.ai.conversation.conversation_data import inject_conversation_data
from huf.ai.conversation.manager import ConversationManager
from huf.ai.conversation_data_tools import api_get_conversation_data, api_set_conversation_data
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user

AGENT = "Memory API Agent"
PLAIN_AGENT = "Memory API Plain Agent"
OWNER = "memory-api-owner@example.com"
STRANGER = "memory-api-stranger@example.com"
VIEWER = "memory-api-viewer@example.com"


class TestConversationDataAPI(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(OWNER, "Huf User")
		make_user(STRANGER, "Huf User")
		make_user(VIEWER, "Huf Viewer")

	def setUp(self):
		make_agent(AGENT, enable_conversation_data=1, inject_conversation_data=1)
		make_agent(PLAIN_AGENT)
		with self.set_user(OWNER):
			self.conversation = ConversationManager(AGENT).get_or_create_conversation().name
			self.plain = ConversationManager(PLAIN_AGENT).get_or_create_conversation().name

	def stored(self) -> dict:
		return json.loads(frappe.db.get_value("Agent Conversation", self.conversation, "conversation_data"))

	def test_set_and_get_with_types(self):
		with self.set_user(OWNER):
			city = api_set_conversation_data(self.conversation, "city", "Pune")
			count = api_set_conversation_data(self.conversation, "count", "3", value_type="integer")
			price = api_set_conversation_data(self.conversation, "price", "2.5", value_type="number")
			vip = api_set_conversation_data(self.conversation, "vip", "true", value_type="boolean")
			cart = api_set_conversation_data(self.conversation, "cart", '{"items": 2}', value_type="object")
			tags = api_set_conversation_data(self.conversation, "tags", ["a", "b"], value_type="array")
			read = api_get_conversation_data(self.conversation, "count")
			missing = api_get_conversation_data(self.conversation, "nothing")
		self.assertEqual((city["name"], city["value"], city["type"]), ("city", "Pune", "string"))
		self.assertEqual([count["value"], price["value"], vip["value"]], [3, 2.5, True])
		self.assertEqual((cart["value"], tags["value"]), ({"items": 2}, ["a", "b"]))
		self.assertEqual(
			(read["found"], read["value"], read["type"], read["updated_by"]), (True, 3, "integer", OWNER)
		)
		self.assertEqual((missing["name"], missing["found"], missing["value"]), ("nothing", False, None))
		self.assertEqual(self.stored()["cart"]["value"], {"items": 2})

	def test_values_that_do_not_fit_their_type_are_refused(self):
		with self.set_user(OWNER):
			for value, value_type in (
				("three", "integer"),
				("2.5", "integer"),
				("yes please", "boolean"),
				("[1, 2]", "object"),
				("not json", "array"),
				(5, "string"),
			):
				with self.assertRaisesRegex(frappe.ValidationError, f"not of type {value_type}"):
					api_set_conversation_data(self.conversation, "bad", value, value_type=value_type)
			with self.assertRaisesRegex(frappe.ValidationError, "value_type must be one of"):
				api_set_conversation_data(self.conversation, "bad", "x", value_type="date")
			with self.assertRaisesRegex(frappe.ValidationError, "inject_mode must be one of"):
				api_set_conversation_data(self.conversation, "bad", "x", inject_mode="loud")
		self.assertIsNone(frappe.db.get_value("Agent Conversation", self.conversation, "conversation_data"))

	def test_only_people_allowed_on_the_conversation_read_or_write_it(self):
		with self.set_user(OWNER):
			api_set_conversation_data(self.conversation, "secret", "42")
		with self.set_user(STRANGER):
			with self.assertRaisesRegex(frappe.PermissionError, "access denied"):
				api_get_conversation_data(self.conversation, "secret")
			with self.assertRaisesRegex(frappe.PermissionError, "access denied"):
				api_set_conversation_data(self.conversation, "secret", "changed")
			with self.assertRaisesRegex(frappe.PermissionError, "access denied"):
				api_get_conversation_data("no-such-conversation", "secret")
		self.assertEqual(self.stored()["secret"]["value"], "42")

	def test_the_agent_must_allow_conversation_data(self):
		with self.set_user(OWNER):
			with self.assertRaisesRegex(frappe.ValidationError, "not enabled for agent"):
				api_set_conversation_data(self.plain, "city", "Pune")
			with self.assertRaisesRegex(frappe.ValidationError, "not enabled for agent"):
				api_get_conversation_data(self.plain, "city")

	def test_auto_inject_and_inject_mode_decide_what_the_prompt_shows(self):
		with self.set_user(OWNER):
			api_set_conversation_data(self.conversation, "city", "Pune")
			api_set_conversation_data(self.conversation, "draft", "a long letter", inject_mode="hidden")
			api_set_conversation_data(self.conversation, "internal", "x", auto_inject=0)
			api_set_conversation_data(self.conversation, "internal", "y")  # keeps auto_inject off
		prompt = inject_conversation_data("Be brief.", self.conversation)
		self.assertIn("- city: Pune", prompt)
		self.assertIn("- draft: (stored; read it with get_conversation_data)", prompt)
		self.assertNotIn("a long letter", prompt)
		self.assertNotIn("internal", prompt)
		self.assertEqual(self.stored()["internal"]["value"], "y")
