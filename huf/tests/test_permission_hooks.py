"""Huf's one has_permission hook answers only for what it decides, so Frappe 15 and 16 deny the same.

Frappe 15 takes the first answer that is not None (walking the hooks from the last), Frappe 16 denies on
any false answer: the hook must answer False to deny and NO_OBJECTION (None on 15, True on 16) otherwise,
never a True on 15 that would silence the checks of other hooks (huf/frappe_compat.py)."""

import frappe

from huf.frappe_compat import FRAPPE_MAJOR, NO_OBJECTION
from huf.huf.permission_hooks import has_permission
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user


class TestPermissionHook(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.alice = make_user("hook-alice@huf.test", "Huf User")
		cls.bob = make_user("hook-bob@huf.test", "Huf User")
		cls.agent = make_agent()

	def conversation_of(self, user: str):
		with self.set_user(user):
			return frappe.get_doc(
				{"doctype": "Agent Conversation", "agent": self.agent.name, "title": "mine"}
			).insert()

	def test_no_objection_is_what_this_frappe_line_chains_on(self):
		self.assertIs(NO_OBJECTION, None if FRAPPE_MAJOR == 15 else True)

	def test_a_record_rule_denies_and_the_owner_gets_no_objection(self):
		conversation = self.conversation_of(self.alice)
		self.assertIs(has_permission(conversation, "read", self.bob), False)
		self.assertIs(has_permission(conversation, "read", self.alice), NO_OBJECTION)
		# and Frappe itself, whatever other hooks are installed on this line, refuses Bob
		self.assertFalse(frappe.has_permission("Agent Conversation", "read", conversation, user=self.bob))
		self.assertTrue(frappe.has_permission("Agent Conversation", "read", conversation, user=self.alice))

	def test_a_capability_denies_a_write_the_docperms_allow(self):
		# Huf User may read agents (DocPerm r) but has no agent.edit capability
		self.assertIs(has_permission(self.agent, "read", self.alice), NO_OBJECTION)
		self.assertIs(has_permission(self.agent, "write", self.alice), False)

	def test_documents_huf_does_not_judge_get_no_answer(self):
		todo = frappe.get_doc({"doctype": "ToDo", "description": "not Huf's"})
		self.assertIs(has_permission(todo, "read", self.bob), NO_OBJECTION)
