"""Done when: an agent on a fresh site lists, creates and updates ToDos through its tools as its user."""

import frappe

from huf.tests.support.tools import ToolTestCase

ADA = "tool-todo-ada@example.com"
BEN = "tool-todo-ben@example.com"
TODO_FIELDS = [
	{"fieldname": "description", "required": 1},
	# Frappe lets a user (not a System Manager) create only ToDos allocated to or assigned by them
	{"fieldname": "allocated_to"},
	{"fieldname": "status", "options": "Open\nClosed\nCancelled"},
	{"fieldname": "priority", "options": "High\nMedium\nLow"},
]


class TestToDoAgent(ToolTestCase):
	users = ((ADA, ("Huf User",)), (BEN, ("Huf User",)))

	def setUp(self):
		super().setUp()
		self.make_tool("todo_list", "Get List", reference_doctype="ToDo", parameters=TODO_FIELDS[2:])
		self.make_tool("todo_create", "Create Document", reference_doctype="ToDo", parameters=TODO_FIELDS)
		self.make_tool("todo_update", "Update Document", reference_doctype="ToDo", parameters=TODO_FIELDS)
		self.agent = self.make_tool_agent("Tool ToDo Agent", "todo_list", "todo_create", "todo_update")

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"owner": ("in", [ADA, BEN])})
		frappe.db.delete("ToDo", {"description": ("like", "%tool-todo%")})
		frappe.db.commit()

	def test_the_agent_lists_creates_and_updates_todos_as_its_user(self):
		schemas = {
			s["function"]["name"]
			for s in self.llm_request_tools_after(
				lambda: self.call_tool(
					self.agent,
					"todo_create",
					{"description": "tool-todo: call the plumber", "priority": "High", "allocated_to": ADA},
					ADA,
				)
			)
		}
		self.assertEqual(schemas, {"todo_list", "todo_create", "todo_update"})
		name = frappe.db.get_value("ToDo", {"description": "tool-todo: call the plumber"}, "name")
		self.assertTrue(name)
		self.assertEqual(
			frappe.db.get_value("ToDo", name, ["owner", "priority", "status"]), (ADA, "High", "Open")
		)

		listed = self.call_tool(self.agent, "todo_list", {"filters": {"status": "Open"}, "limit": "10"}, ADA)
		self.assertEqual(listed["record"].status, "Completed")
		self.assertEqual([r["name"] for r in listed["data"]["records"]], [name])
		self.assertEqual(listed["data"]["records"][0]["description"], "tool-todo: call the plumber")

		updated = self.call_tool(self.agent, "todo_update", {"document_id": name, "status": "Closed"}, ADA)
		self.assertEqual(updated["record"].status, "Completed", updated["content"])
		self.assertEqual(frappe.db.get_value("ToDo", name, "status"), "Closed")

	def test_another_user_is_denied_and_nothing_changes(self):
		self.call_tool(
			self.agent, "todo_create", {"description": "tool-todo: Ada's secret", "allocated_to": ADA}, ADA
		)
		name = frappe.db.get_value("ToDo", {"description": "tool-todo: Ada's secret"}, "name")

		listed = self.call_tool(self.agent, "todo_list", {}, BEN)
		self.assertEqual(listed["data"]["records"], [])  # Ben sees only his own ToDos

		denied = self.call_tool(self.agent, "todo_update", {"document_id": name, "status": "Cancelled"}, BEN)
		self.assertEqual(denied["record"].status, "Failed")
		self.assertIn("Permission denied in todo_update", denied["content"])
		self.assertEqual(frappe.db.get_value("ToDo", name, "status"), "Open")

	def test_ignore_permissions_from_the_model_is_never_honoured(self):
		self.call_tool(
			self.agent, "todo_create", {"description": "tool-todo: Ada's plan", "allocated_to": ADA}, ADA
		)
		name = frappe.db.get_value("ToDo", {"description": "tool-todo: Ada's plan"}, "name")
		denied = self.call_tool(
			self.agent,
			"todo_update",
			{
				"document_id": name,
				"status": "Closed",
				"ignore_permissions": True,
				"flags": {"ignore_permissions": 1},
			},
			BEN,
		)
		self.assertEqual(denied["record"].status, "Failed")
		self.assertEqual(frappe.db.get_value("ToDo", name, "status"), "Open")

	def test_a_guest_of_a_public_agent_is_denied(self):
		public = self.make_tool_agent("Tool ToDo Public Agent", "todo_list", "todo_create", allow_guest=1)
		denied = self.call_tool(public, "todo_create", {"description": "tool-todo: from a guest"}, "Guest")
		self.assertEqual(denied["record"].status, "Failed")
		self.assertIn("Permission denied in todo_create", denied["content"])
		self.assertFalse(frappe.db.exists("ToDo", {"description": "tool-todo: from a guest"}))

	def llm_request_tools_after(self, action) -> list:
		action()
		return self.llm.chat_requests[0]["body"]["tools"]
