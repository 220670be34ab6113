"""The Agent list condition (record_access.agent_query_conditions) escapes the role names it names."""

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user


class TestAgentListConditions(HufTestCase):
	def test_role_names_with_quotes_are_escaped_in_the_agent_list(self):
		role = "Agent Reader's Role"
		if not frappe.db.exists("Role", role):
			frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert()
		insider = make_user("list-insider@example.com", "Huf User", role)
		outsider = make_user("list-outsider@example.com", "Huf User")
		agent = make_agent("Quoted Role Agent", agent_role=[{"role": role}]).name
		with self.set_user(insider):
			self.assertIn(agent, frappe.get_list("Agent", pluck="name"))
		with self.set_user(outsider):
			self.assertNotIn(agent, frappe.get_list("Agent", pluck="name"))
