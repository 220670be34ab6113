"""Report DocType and frappe.desk.query_report.run: Query and Script Reports with Frappe's permission rules."""

import frappe
from frappe.desk.query_report import run
from frappe.tests import IntegrationTestCase

READER = "report-reader@example.com"


def make_report(name: str, **values) -> str:
	frappe.delete_doc_if_exists("Report", name)
	return (
		frappe.get_doc(
			{"doctype": "Report", "report_name": name, "is_standard": "No", "ref_doctype": "ToDo", **values}
		)
		.insert()
		.name
	)


class TestQueryReport(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()  # as on Frappe, rolled back once when the class ends
		for text, status in (("report-a", "Open"), ("report-b", "Closed"), ("report-c", "Open")):
			frappe.get_doc({"doctype": "ToDo", "description": text, "status": status}).insert()
		if not frappe.db.exists("User", READER):
			frappe.get_doc(
				{"doctype": "User", "email": READER, "first_name": "Reader", "send_welcome_email": 0}
			).insert()

	def setUp(self):
		frappe.set_user("Administrator")

	def test_query_report_with_filters(self):
		name = make_report(
			"Open Report ToDos",
			report_type="Query Report",
			query="select description, status from `tabToDo` where status = %(status)s and description like 'report-%%' order by description",
		)
		result = run(name, filters='{"status": "Open"}')
		self.assertEqual(result["columns"], ["description", "status"])
		self.assertEqual(result["result"], [["report-a", "Open"], ["report-c", "Open"]])

	def test_only_select_queries(self):
		with self.assertRaises(frappe.ValidationError):
			make_report("Bad Report", report_type="Query Report", query="delete from `tabToDo`")
		with self.assertRaises(frappe.ValidationError):
			make_report("Two Statements", report_type="Query Report", query="select 1; delete from `tabToDo`")

	def test_script_report_with_total_row(self):
		frappe.conf.server_script_enabled = 1
		self.addCleanup(frappe.conf.pop, "server_script_enabled", None)
		name = make_report(
			"Squares",
			report_type="Script Report",
			add_total_row=1,
			report_script="columns = ['N:Int:80', 'Square:Int:80']\nresult = [[i, i * i] for i in range(1, filters.upto + 1)]",
		)
		result = run(name, filters={"upto": 3})
		self.assertEqual(result["result"], [[1, 1], [2, 4], [3, 9], [6.0, 14.0]])
		self.assertTrue(result["add_total_row"])

	def test_roles_report_right_and_disabled(self):
		name = make_report(
			"Admins Only",
			report_type="Query Report",
			query="select name from `tabToDo`",
			roles=[{"role": "System Manager"}],
		)
		frappe.set_user(READER)
		with self.assertRaises(frappe.PermissionError):
			run(name)
		frappe.set_user("Administrator")
		self.assertIsInstance(run(name)["result"], list)
		frappe.db.set_value("Report", name, "disabled", 1)
		with self.assertRaises(frappe.ValidationError):
			run(name)
