"""`huf.ai.tool_registry.sync_discovered_tools` (tools.manage) and the uninstall hook that drops an
app's App Provided tools."""

import json

import frappe

from huf import install
from huf.ai.tool_registry import sync_discovered_tools
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user

MANAGER = "tool-sync-manager@example.com"
HUF_USER = "tool-sync-user@example.com"
GONE_APP = "tool_sync_gone_app"


class TestSyncDiscoveredTools(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")

	def test_huf_managers_sync_and_huf_users_are_refused(self):
		frappe.set_user(HUF_USER)
		with self.assertRaises(frappe.PermissionError) as refused:
			sync_discovered_tools()
		self.assertIn("tools.manage", str(refused.exception))
		frappe.set_user(MANAGER)
		frappe.db.set_value("Agent Tool Function", "generate_image", "description", "changed")
		summary = sync_discovered_tools(apps_to_scan='["huf"]', use_cache=0)
		self.assertEqual(summary["synced"], ["huf"])
		self.assertIn("generate_image", summary["updated"])
		self.assertNotEqual(
			frappe.db.get_value("Agent Tool Function", "generate_image", "description"), "changed"
		)
		self.assertEqual(sync_discovered_tools(apps_to_scan="huf")["skipped"], ["huf"])  # use_cache

	def test_unknown_apps_and_bad_lists_are_refused(self):
		with self.assertRaisesRegex(frappe.ValidationError, "not_an_app is not installed"):
			sync_discovered_tools(apps_to_scan=["not_an_app"])
		with self.assertRaisesRegex(frappe.ValidationError, "list of app names"):
			sync_discovered_tools(apps_to_scan="[not json")
		with self.assertRaisesRegex(frappe.ValidationError, "list of app names"):
			sync_discovered_tools(apps_to_scan=[1, 2])

	def test_the_install_hooks_are_the_ones_frappe_calls_with_the_app_name(self):
		# after_uninstall hooks run only for the app itself and without arguments (upstream's mistake)
		self.assertEqual(frappe.get_hooks("after_uninstall", app_name="huf"), [])
		self.assertEqual(
			frappe.get_hooks("after_app_uninstall", app_name="huf"), ["huf.install.after_app_uninstall"]
		)
		self.assertEqual(
			frappe.get_hooks("after_app_install", app_name="huf"), ["huf.install.after_app_install"]
		)

	def test_uninstalling_an_app_removes_its_app_provided_tools(self):
		# what a sync left of an app that Frappe has just uninstalled
		tool = frappe.get_doc("Agent Tool Function", "generate_image")
		copy = frappe.copy_doc(tool)
		copy.tool_name = "tool_sync_gone_tool"
		copy.insert()
		frappe.db.set_value("Agent Tool Function", copy.name, "provider_app", GONE_APP)
		agent = make_agent("Tool Sync Agent", agent_tool=[{"tool": copy.name}, {"tool": "generate_image"}])
		settings = frappe.get_single("Agent Settings")
		state = json.loads(settings.tool_sync_state or "{}")
		state[GONE_APP] = {"mtime": 1.0, "tools": [copy.name]}
		settings.db_set("tool_sync_state", json.dumps(state))

		install.after_app_uninstall(GONE_APP)
		self.assertFalse(frappe.db.exists("Agent Tool Function", copy.name))
		self.assertEqual(
			[row.tool for row in frappe.get_doc("Agent", agent.name).agent_tool], ["generate_image"]
		)
		state = json.loads(frappe.db.get_single_value("Agent Settings", "tool_sync_state"))
		self.assertNotIn(GONE_APP, state)
		self.assertTrue(frappe.db.exists("Agent Tool Function", "generate_image"))
