"""The integration tools Huf registers in its `huf_tools` hook."""

import frappe

from huf.ai.integrations.services import get_integration_tools
from huf.ai.tools.app_sync import validate_tool_def
from huf.huf.app_tools import get_registered_tools
from huf.tests.support.case import HufTestCase


class TestIntegrationTools(HufTestCase):
	def test_every_tool_is_valid_and_named_for_its_service(self):
		tools = get_integration_tools()
		names = [t["tool_name"] for t in tools]
		self.assertEqual(len(names), len(set(names)))
		for definition in tools:
			self.assertEqual(validate_tool_def(definition), [], definition["tool_name"])
			service = frappe.get_attr(definition["function_path"].rsplit(".", 1)[0] + ".SERVICE")
			self.assertTrue(definition["tool_name"].startswith(service + "_"), definition["tool_name"])
			self.assertTrue(frappe.db.exists("Integration Service", service), service)
			self.assertEqual(definition["parameters"][-1]["fieldname"], "settings")
		for name in (
			"slack_send_message",
			"telegram_send_message",
			"github_create_issue",
			"notion_create_page",
		):
			self.assertIn(name, names)

	def test_huf_registers_them_and_install_syncs_them(self):
		registered = {d["tool_name"] for app, d in get_registered_tools("huf")}
		self.assertTrue({t["tool_name"] for t in get_integration_tools()} <= registered)
		tool = frappe.get_doc("Agent Tool Function", "hubspot_search_deals")
		self.assertEqual((tool.types, tool.provider_app), ("App Provided", "huf"))
		self.assertEqual(tool.function_path, "huf.ai.integrations.services.hubspot.hubspot_search_deals")
