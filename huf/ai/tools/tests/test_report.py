"""Get Report Result tools: Query and Script Reports, run as the user with the Report's permission rules.

Huf Users have the report right on Agent (ToDo's is owner-only, which Frappe does not count for reports)."""

import frappe

from huf.tests.support.config import set_site_config
from huf.tests.support.tools import ToolTestCase

USER = "tool-report-user@example.com"
QUERY_REPORT = "Huf Tool Open ToDos"
SCRIPT_REPORT = "Huf Tool Numbers"
MANAGERS_REPORT = "Huf Tool Managers Only"


class TestReportTools(ToolTestCase):
	users = ((USER, ("Huf User",)),)

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		frappe.set_user("Administrator")
		reports = [
			{
				"report_name": QUERY_REPORT,
				"report_type": "Query Report",
				"ref_doctype": "Agent",
				"query": "select name, description, status from `tabToDo` where status = %(status)s and description like 'tool-report%%' order by description",
			},
			{
				"report_name": SCRIPT_REPORT,
				"report_type": "Script Report",
				"ref_doctype": "Agent",
				"add_total_row": 1,
				"report_script": (
					"columns = [{'fieldname': 'n', 'label': 'N', 'fieldtype': 'Int'}, {'fieldname': 'square', 'label': 'Square', 'fieldtype': 'Int'}]\n"
					"result = [{'n': i, 'square': i * i} for i in range(1, (filters.upto or 3) + 1)]\n"
					"data = columns, result"  # Frappe reads a script's own columns from `data` only
				),
			},
			{
				"report_name": MANAGERS_REPORT,
				"report_type": "Query Report",
				"ref_doctype": "Agent",
				"query": "select name from `tabToDo`",
				"roles": [{"role": "System Manager"}],
			},
		]
		for values in reports:
			frappe.delete_doc_if_exists("Report", values["report_name"])
			frappe.get_doc({"doctype": "Report", "is_standard": "No", **values}).insert()
		frappe.db.commit()
		cls.addClassCleanup(cls.delete_reports)
		ToolTestCase.make_tool(cls, "run_report", "Get Report Result", tool_type="Document Operations")
		cls.agent = ToolTestCase.make_agent(cls, "Tool Report Agent", agent_tool=[{"tool": "run_report"}])

	@classmethod
	def delete_reports(cls):
		frappe.set_user("Administrator")
		for name in (QUERY_REPORT, SCRIPT_REPORT, MANAGERS_REPORT):
			frappe.delete_doc_if_exists("Report", name)
		frappe.db.delete("ToDo", {"description": ("like", "tool-report%")})
		frappe.db.commit()

	def setUp(self):
		super().setUp()
		# Script Reports need server scripts, which Frappe enables in common_site_config.json only
		# (Frappe Lite still reads the site's conf: set there too until it follows Frappe)
		self._scripts = frappe.conf.get("server_script_enabled")
		frappe.conf.server_script_enabled = 1
		self.addCleanup(setattr, frappe.conf, "server_script_enabled", self._scripts)
		set_site_config("server_script_enabled", 1, common=True)
		self.addCleanup(set_site_config, "server_script_enabled", None, common=True)

	def test_query_report_with_filters(self):
		for text, status in (
			("tool-report a", "Open"),
			("tool-report b", "Closed"),
			("tool-report c", "Open"),
		):
			frappe.get_doc({"doctype": "ToDo", "description": text, "status": status}).insert(
				ignore_permissions=True
			)
		frappe.db.commit()
		out = self.call_tool(
			self.agent, "run_report", {"report_name": QUERY_REPORT, "filters": '{"status": "Open"}'}, USER
		)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertEqual(out["data"]["columns"], ["name", "description", "status"])
		self.assertEqual(
			[row["description"] for row in out["data"]["rows"]], ["tool-report a", "tool-report c"]
		)

	def test_script_report_with_a_total_row_and_a_limit(self):
		out = self.call_tool(
			self.agent,
			"run_report",
			{"report_name": SCRIPT_REPORT, "filters": {"upto": 4}, "limit": "2"},
			USER,
		)
		self.assertEqual(out["data"]["columns"], ["N", "Square"])
		self.assertEqual(out["data"]["rows"], [{"n": 1, "square": 1}, {"n": 2, "square": 4}])
		self.assertEqual((out["data"]["row_count"], out["data"]["truncated"]), (5, True))  # 4 rows + total
		full = self.call_tool(self.agent, "run_report", {"report_name": SCRIPT_REPORT}, USER)
		self.assertEqual(full["data"]["rows"][-1], {"n": 6.0, "square": 14.0})

	def test_a_report_limited_to_other_roles_is_denied(self):
		out = self.call_tool(self.agent, "run_report", {"report_name": MANAGERS_REPORT}, USER)
		self.assertEqual(out["record"].status, "Failed")
		self.assertIn("Permission denied in run_report: You don't have access to Report", out["content"])
		admin = self.call_tool(self.agent, "run_report", {"report_name": MANAGERS_REPORT})
		self.assertEqual(admin["record"].status, "Completed", admin["content"])

	def test_unknown_report(self):
		out = self.call_tool(self.agent, "run_report", {"report_name": "No Such Report"}, USER)
		self.assertIn("Report No Such Report not found", out["content"])
