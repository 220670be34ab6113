import json

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent

THIS_MODULE = "huf.huf.doctype.agent_tool_function.test_agent_tool_function"


@frappe.whitelist()
def sample_tool(city: str, days: int = 3, metric: bool = True) -> dict:
	"""A whitelisted function a Custom Function tool may call."""
	return {"city": city, "days": days}


def not_whitelisted(city: str) -> str:
	return city


def new_tool(**values):
	return frappe.get_doc(
		{
			"doctype": "Agent Tool Function",
			"tool_name": "test_tool",
			"tool_type": "Custom",
			"description": "Test",
			**values,
		}
	)


class TestAgentToolFunction(HufTestCase):
	def test_definition_built_from_parameters(self):
		doc = new_tool(
			types="Custom Function",
			function_path=f"{THIS_MODULE}.sample_tool",
			parameters=[
				{"fieldname": "city", "type": "string", "required": 1, "description": "City"},
				{"fieldname": "unit", "type": "string", "options": "C\nF"},
				{"fieldname": "days", "type": "integer"},
				{"fieldname": "sku", "type": "string", "required": 1, "child_table_name": "items"},
				{"fieldname": "qty", "type": "number", "child_table_name": "items"},
			],
		).insert()
		definition = json.loads(doc.function_definition)
		self.assertEqual(definition["name"], "test_tool")
		parameters = definition["parameters"]
		self.assertEqual(parameters["required"], ["city"])
		self.assertEqual(parameters["properties"]["unit"]["enum"], ["C", "F"])
		self.assertEqual(parameters["properties"]["days"]["type"], "integer")
		items = parameters["properties"]["items"]
		self.assertEqual(items["type"], "array")
		self.assertEqual(items["items"]["properties"]["qty"]["type"], "number")
		self.assertEqual(items["items"]["required"], ["sku"])

	def test_definition_rebuilt_on_every_save(self):
		doc = new_tool(types="Custom Function", function_path=f"{THIS_MODULE}.sample_tool").insert()
		doc.append("parameters", {"fieldname": "city", "type": "string", "required": 1})
		doc.save()
		self.assertEqual(json.loads(doc.function_definition)["parameters"]["required"], ["city"])

	def test_doctype_types_need_reference_doctype(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Reference DocType is required"):
			new_tool(types="Get Document").insert()
		doc = new_tool(types="Get Document", reference_doctype="ToDo").insert()
		self.assertEqual(json.loads(doc.function_definition)["parameters"]["required"], ["document_id"])

	def test_custom_function_needs_path(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Function Path is required"):
			new_tool(types="Custom Function").insert()

	def test_custom_function_must_be_whitelisted(self):
		with self.assertRaisesRegex(frappe.PermissionError, "whitelist"):
			new_tool(types="Custom Function", function_path=f"{THIS_MODULE}.not_whitelisted").insert()

	def test_app_provided_must_be_registered_by_a_hook(self):
		with self.assertRaisesRegex(frappe.PermissionError, "huf_tools"):
			new_tool(types="App Provided", function_path="subprocess.getoutput").insert()

	def test_app_provided_registered_tool_saves(self):
		doc = new_tool(
			tool_name="my_ocr", types="App Provided", function_path="huf.ai.sdk_tools.handle_ocr_document"
		).insert()
		self.assertEqual(doc.provider_app, "huf")

	def test_run_agent_needs_agent(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Agent is required"):
			new_tool(types="Run Agent").insert()
		doc = new_tool(types="Run Agent", agent=make_agent().name).insert()
		self.assertEqual(json.loads(doc.function_definition)["parameters"]["required"], ["prompt"])

	def test_http_needs_base_url_or_url_parameter(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Base URL or a parameter named url"):
			new_tool(types="GET").insert()
		new_tool(tool_name="get_with_base", types="GET", base_url="https://api.example.com").insert()
		new_tool(
			tool_name="get_with_url", types="POST", parameters=[{"fieldname": "url", "type": "string"}]
		).insert()

	def test_tool_name_without_spaces(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Tool Name"):
			new_tool(tool_name="my tool", types="Get Document", reference_doctype="ToDo").insert()

	def test_fetch_parameters_from_code(self):
		doc = new_tool(types="Custom Function", function_path=f"{THIS_MODULE}.sample_tool").insert()
		rows = doc.fetch_parameters_from_code()
		self.assertEqual(
			[(r["fieldname"], r["type"], r["required"]) for r in rows],
			[("city", "string", 1), ("days", "integer", 0), ("metric", "boolean", 0)],
		)
