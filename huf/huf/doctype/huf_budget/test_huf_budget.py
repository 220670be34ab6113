import frappe

from huf.tests.support.case import HufTestCase


class TestHufBudget(HufTestCase):
	def budget(self, **values):
		return frappe.get_doc(
			{"doctype": "Huf Budget", "budget_name": "Budget Validation", "limit_usd": 1, **values}
		)

	def test_a_budget_keeps_only_what_its_scope_names(self):
		doc = self.budget(scope="Site", user="Administrator", warning_percent=0).insert()
		self.assertEqual((doc.agent, doc.user, doc.warning_percent), (None, None, 80))
		self.assertEqual((doc.period, doc.enabled), ("Month", 1))

	def test_a_scoped_budget_needs_its_agent_or_user_and_no_limit_is_negative(self):
		self.assertRaises(frappe.ValidationError, self.budget(scope="Agent").insert)
		self.assertRaises(frappe.ValidationError, self.budget(scope="User").insert)
		self.assertRaises(frappe.ValidationError, self.budget(scope="Site", limit_usd=-1).insert)
