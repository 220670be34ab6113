"""Agent tools for a data table: made once, given to an agent, and used by a run to create and list records."""

import frappe

from huf.api.data_tables import create_table_tools
from huf.tests.support.data_tables import TASK_FIELDS, drop_data_table, make_data_table, unique_table_name
from huf.tests.support.runs import make_runtime_agent
from huf.tests.support.tools import ToolTestCase, delete_tools

USER = "data-tools-user@example.com"
MANAGER = "data-tools-manager@example.com"


class TestTableTools(ToolTestCase):
	users = ((USER, ("Huf User",)), (MANAGER, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.table_name = unique_table_name("Tool Table")
		cls.table = make_data_table(cls.table_name, TASK_FIELDS)
		cls.addClassCleanup(drop_data_table, cls.table)
		cls.doctype = f"HF {cls.table_name}"
		cls.agent = make_runtime_agent("Data Table Tools Agent")

	def tearDown(self):
		super().tearDown()
		tools = frappe.get_all(
			"Agent Tool Function", filters={"reference_doctype": self.doctype}, pluck="name"
		)
		delete_tools(tools)
		frappe.db.delete(self.doctype)
		frappe.db.commit()

	def make_tools(self, user: str = MANAGER, **kwargs) -> dict:
		frappe.set_user(user)
		try:
			result = create_table_tools(self.table, **kwargs)
		finally:
			frappe.set_user("Administrator")
		frappe.db.commit()
		return result

	def test_the_tools_are_made_once_and_given_to_the_agent(self):
		result = self.make_tools(agent=self.agent)
		slug = frappe.scrub(self.table_name)
		self.assertEqual(
			result["tools"],
			[
				f"{slug}_list_records",
				f"{slug}_get_record",
				f"{slug}_create_record",
				f"{slug}_update_record",
				f"{slug}_delete_record",
			],
		)
		self.assertEqual(result["agent"], self.agent)
		stored = frappe.get_all(
			"Agent Tool Function",
			filters={"reference_doctype": self.doctype},
			fields=["name", "types"],
			order_by="name asc",
		)
		self.assertEqual(
			{row.types for row in stored},
			{"Get List", "Get Document", "Create Document", "Update Document", "Delete Document"},
		)
		again = self.make_tools(agent=self.agent, actions='["list", "create"]')
		self.assertEqual(again["tools"], [f"{slug}_list_records", f"{slug}_create_record"])
		self.assertEqual(frappe.db.count("Agent Tool Function", {"reference_doctype": self.doctype}), 5)
		agent_tools = frappe.get_all("Agent Tool", filters={"parent": self.agent}, pluck="tool")
		self.assertEqual(sorted(agent_tools), sorted(result["tools"]))

	def test_deleting_the_table_removes_its_tools_from_the_agents(self):
		table_name = unique_table_name("Doomed Table")
		table = make_data_table(table_name, TASK_FIELDS)
		self.addCleanup(drop_data_table, table)
		frappe.set_user(MANAGER)
		try:
			tools = create_table_tools(table, agent=self.agent, actions="list,create")["tools"]
		finally:
			frappe.set_user("Administrator")
		frappe.db.commit()
		kept = frappe.get_all("Agent Tool", filters={"parent": self.agent}, pluck="tool")
		self.assertTrue(set(tools) <= set(kept))

		drop_data_table(table)
		self.assertFalse(frappe.db.exists("Agent Tool Function", {"name": ["in", tools]}))
		left = frappe.get_all("Agent Tool", filters={"parent": self.agent}, pluck="tool")
		self.assertEqual(sorted(left), sorted(set(kept) - set(tools)))

	def test_only_tool_makers_may_make_them(self):
		with self.assertRaises(frappe.PermissionError):
			self.make_tools(USER)
		with self.assertRaises(frappe.ValidationError) as caught:
			self.make_tools(actions="list,drop")
		self.assertIn("Unknown action drop", str(caught.exception))
		self.assertEqual(frappe.db.count("Agent Tool Function", {"reference_doctype": self.doctype}), 0)

	def test_an_agent_creates_and_lists_records_of_the_table_as_its_user(self):
		tools = self.make_tools(agent=self.agent, actions="list,create,update")["tools"]
		list_tool, create_tool, update_tool = tools

		created = self.call_tool(
			self.agent, create_tool, {"title": "Call the plumber", "qty": "2", "status": "Open"}, USER
		)
		self.assertEqual(created["record"].status, "Completed", created["content"])
		record = frappe.db.get_value(
			self.doctype, {"title": "Call the plumber"}, ["name", "owner", "qty"], as_dict=True
		)
		self.assertEqual((record.owner, record.qty), (USER, 2))
		self.assertEqual(str(created["data"]["name"]), str(record.name))

		listed = self.call_tool(self.agent, list_tool, {"filters": {"status": "Open"}}, USER)
		self.assertEqual(listed["record"].status, "Completed", listed["content"])
		self.assertEqual(
			[(str(r["name"]), r["title"]) for r in listed["data"]["records"]],
			[(str(record.name), "Call the plumber")],
		)

		updated = self.call_tool(self.agent, update_tool, {"document_id": str(record.name), "qty": 5}, USER)
		self.assertEqual(updated["record"].status, "Completed", updated["content"])
		self.assertEqual(frappe.db.get_value(self.doctype, record.name, "qty"), 5)

	def test_the_run_keeps_to_the_users_rows(self):
		tools = self.make_tools(agent=self.agent, actions="list,update")["tools"]
		list_tool, update_tool = tools
		other = frappe.get_doc({"doctype": self.doctype, "title": "Manager's row"})
		frappe.set_user(MANAGER)
		try:
			other.insert()
		finally:
			frappe.set_user("Administrator")
		frappe.db.commit()

		listed = self.call_tool(self.agent, list_tool, {}, USER)
		self.assertEqual(listed["data"]["records"], [])
		denied = self.call_tool(
			self.agent, update_tool, {"document_id": str(other.name), "title": "Mine now"}, USER
		)
		self.assertEqual(denied["record"].status, "Failed")
		self.assertEqual(frappe.db.get_value(self.doctype, other.name, "title"), "Manager's row")
