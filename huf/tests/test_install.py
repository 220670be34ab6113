"""Install and migrate seeding: everything Huf needs exists, and running it again adds nothing."""

import frappe

from huf import install
from huf.huf.builtin_tools import get_builtin_tools
from huf.huf.capabilities import DEFAULT_HUF_ROLES
from huf.tests.support.case import HufTestCase

COUNTED = (
	"Role",
	"Agent Tool Type",
	"Agent Tool Function",
	"Agent Function Params",
	"Huf Role",
	"Huf Role Permission",
)


def counts() -> dict:
	return {doctype: frappe.db.count(doctype) for doctype in COUNTED}


class TestInstall(HufTestCase):
	def test_seeded_records_exist(self):
		for role in install.ROLES:
			self.assertTrue(frappe.db.exists("Role", role), role)
		for tool_type in install.TOOL_TYPES:
			self.assertTrue(frappe.db.exists("Agent Tool Type", tool_type), tool_type)
		for name in DEFAULT_HUF_ROLES:
			self.assertTrue(frappe.db.exists("Huf Role", name), name)
		expected = {
			"ocr_document",
			"generate_image",
			"generate_audio",
			"knowledge_search",
			"get_knowledge_sources",
			"get_conversation_data",
			"set_conversation_data",
			"load_conversation_data",
			"run_flow",
			"get_flow_run",
			"resume_flow_run",
			"approve_flow_run",
		}
		self.assertEqual({t["tool_name"] for t in get_builtin_tools()}, expected)
		for name in expected:
			tool = frappe.get_doc("Agent Tool Function", name)
			self.assertEqual((tool.types, tool.provider_app), ("App Provided", "huf"))
			self.assertEqual(frappe.parse_json(tool.function_definition)["name"], name)

	def test_install_then_migrate_twice_adds_nothing(self):
		before = counts()
		install.after_install()
		install.after_migrate()
		install.after_migrate()
		self.assertEqual(counts(), before)

	def test_migrate_restores_a_changed_builtin_tool_but_keeps_user_tools(self):
		frappe.db.set_value("Agent Tool Function", "generate_image", "description", "changed")
		install.after_migrate()
		self.assertNotEqual(
			frappe.db.get_value("Agent Tool Function", "generate_image", "description"), "changed"
		)
		frappe.db.set_value("Agent Tool Function", "run_flow", "provider_app", "my_app")
		frappe.db.set_value("Agent Tool Function", "run_flow", "description", "mine")
		install.after_migrate()
		self.assertEqual(frappe.db.get_value("Agent Tool Function", "run_flow", "description"), "mine")

	def test_migrate_recreates_a_deleted_default(self):
		frappe.db.delete("Agent Tool Type", {"name": "MCP"})
		install.after_migrate()
		self.assertTrue(frappe.db.exists("Agent Tool Type", "MCP"))

	def test_agent_settings_default_provider_when_only_one(self):
		for fieldname in ("default_provider", "default_model"):
			frappe.db.set_single_value("Agent Settings", fieldname, None)
		for provider in frappe.get_all("AI Provider", pluck="name"):
			frappe.delete_doc("AI Provider", provider, force=True)
		frappe.get_doc({"doctype": "AI Provider", "provider_name": "Only Provider"}).insert()
		frappe.get_doc(
			{"doctype": "AI Model", "model_name": "only-model", "provider": "Only Provider"}
		).insert()
		install.after_migrate()
		settings = frappe.get_single("Agent Settings")
		self.assertEqual((settings.default_provider, settings.default_model), ("Only Provider", "only-model"))
