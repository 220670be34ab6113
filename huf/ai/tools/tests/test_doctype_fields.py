"""Create / Update Document tools without parameter rows offer the DocType's own fields to the model."""

import frappe

from huf.huf import doctype_schema
from huf.huf.tool_schema import build_parameters
from huf.tests.support.case import HufUnitTestCase
from huf.tests.support.tools import ToolTestCase

CLERK = "tool-fields-clerk@example.com"


def schema_of(types: str, doctype: str) -> dict:
	return build_parameters(frappe._dict(types=types, reference_doctype=doctype, parameters=[]))


class TestDocTypeFieldSchema(HufUnitTestCase):
	def test_field_types_become_json_types(self):
		schema = schema_of("Create Document", "Lite Test Record")
		properties = schema["properties"]
		self.assertEqual(schema["required"], ["title"])  # status/priority/is_active have defaults
		self.assertEqual(
			{name: properties[name]["type"] for name in ("title", "qty", "rate", "is_active", "notes")},
			{
				"title": "string",
				"qty": "integer",
				"rate": "number",
				"is_active": "boolean",
				"notes": "string",
			},
		)
		self.assertEqual(properties["status"]["enum"], ["Open", "Replied", "Closed"])
		self.assertIn("Lite Test Category", properties["category"]["description"])
		self.assertEqual(properties["data"]["type"], "object")
		items = properties["items"]
		self.assertEqual(items["type"], "array")
		self.assertEqual(items["items"]["required"], ["item_name"])
		self.assertEqual(items["items"]["properties"]["uom"]["enum"], ["Nos", "Kg"])
		self.assertNotIn("amount", items["items"]["properties"])  # read-only in the child
		# read-only, secret and layout fields are never offered
		for name in ("category_description", "total", "secret", "column_break_main", "section_items"):
			self.assertNotIn(name, properties)

	def test_dates_carry_their_format(self):
		properties = schema_of("Create Document", "ToDo")["properties"]
		self.assertEqual(properties["date"]["format"], "date")
		self.assertIn("YYYY-MM-DD", properties["date"]["description"])

	def test_update_requires_only_the_document_id(self):
		schema = schema_of("Update Document", "Lite Test Record")
		self.assertEqual(schema["required"], ["document_id"])
		self.assertEqual(schema["properties"]["title"]["type"], "string")
		batch = schema_of("Update Multiple Documents", "Lite Test Record")
		self.assertEqual(batch["properties"]["documents"]["items"]["required"], ["document_id"])
		create = schema_of("Create Multiple Documents", "Lite Test Record")
		self.assertEqual(create["properties"]["documents"]["items"]["required"], ["title"])

	def test_parameter_rows_still_win(self):
		rows = [frappe._dict(fieldname="title", label="Title", type="string", required=1)]
		schema = build_parameters(
			frappe._dict(types="Create Document", reference_doctype="Lite Test Record", parameters=rows)
		)
		self.assertEqual(list(schema["properties"]), ["title"])

	def test_the_field_count_is_capped_required_first(self):
		properties, required = doctype_schema.doctype_properties("User", for_create=True)
		self.assertLessEqual(len(properties), doctype_schema.MAX_FIELDS)
		self.assertIn("email", required)
		self.assertIn("email", properties)
		self.assertNotIn("new_password", properties)  # a Password field


class TestToDoToolWithoutParameters(ToolTestCase):
	"""As a new user would: a Create Document tool on ToDo, no parameter rows, used by an agent."""

	users = ((CLERK, ("Huf User",)),)

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"description": ("like", "%tool-fields%")})
		frappe.db.commit()

	def test_an_agent_creates_and_updates_a_todo_through_tools_without_parameters(self):
		self.make_tool("fields_todo_create", "Create Document", reference_doctype="ToDo")
		self.make_tool("fields_todo_update", "Update Document", reference_doctype="ToDo")
		agent = self.make_tool_agent("Tool Fields Agent", "fields_todo_create", "fields_todo_update")

		created = self.call_tool(
			agent,
			"fields_todo_create",
			{"description": "tool-fields: order paper", "priority": "High", "allocated_to": CLERK},
			CLERK,
		)
		self.assertEqual(created["record"].status, "Completed", created["content"])
		tools = {t["function"]["name"]: t["function"] for t in self.llm.chat_requests[0]["body"]["tools"]}
		create_schema = tools["fields_todo_create"]["parameters"]
		self.assertEqual(create_schema["required"], ["description"])
		self.assertEqual(create_schema["properties"]["priority"]["enum"], ["High", "Medium", "Low"])
		self.assertEqual(tools["fields_todo_update"]["parameters"]["required"], ["document_id"])
		name = frappe.db.get_value("ToDo", {"description": "tool-fields: order paper"}, "name")
		self.assertEqual(frappe.db.get_value("ToDo", name, ["owner", "priority"]), (CLERK, "High"))

		updated = self.call_tool(
			agent, "fields_todo_update", {"document_id": name, "status": "Closed"}, CLERK
		)
		self.assertEqual(updated["record"].status, "Completed", updated["content"])
		self.assertEqual(frappe.db.get_value("ToDo", name, "status"), "Closed")

	def test_a_create_without_the_required_field_is_refused_by_name(self):
		self.make_tool("fields_todo_create", "Create Document", reference_doctype="ToDo")
		agent = self.make_tool_agent("Tool Fields Agent", "fields_todo_create")
		refused = self.call_tool(agent, "fields_todo_create", {"priority": "Low"}, CLERK)
		self.assertEqual(refused["record"].status, "Failed")
		self.assertIn("description is required", refused["content"])
