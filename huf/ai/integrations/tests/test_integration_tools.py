"""The integration tools Huf registers in its `huf_tools` hook."""

import frappe

from huf.ai.integrations.services import get_integration_tools
from huf.ai.tools.app_sync import validate_tool_def
from huf.huf.app_tools import get_registered_tools
from huf.tests.support.case import HufTestCase

# Upstream Huf's names of some services' tools (kept so agents built on upstream find them).
UPSTREAM_PREFIXES = {
	"google_calendar": "gcalendar_",
	"google_sheets": "gsheets_",
	"google_maps": "gmaps_",
	"google_drive": "gdrive_",
	"frappe": "erpnext_",
}
# The tools that send messages outside the site or delete: they start with Requires Approval ticked.
APPROVAL_TOOLS = {
	"slack_send_message",
	"slack_reply_in_thread",
	"slack_send_thread_reply",  # upstream's name of slack_reply_in_thread
	"discord_send_message",
	"discord_reply_to_message",
	"discord_delete_message",
	"telegram_send_message",
	"gmail_send_email",
	"gcalendar_delete_event",
	"raven_send_message",
	"helpdesk_reply_to_ticket",
	"webhook_post",
	# one tool, several actions, some of which send or change records (the gate is per tool)
	"helpdesk",
	"raven",
	"erpnext",
}
# Upstream Huf's integration tools Huf provides under the same name.
UPSTREAM_TOOLS = {
	"get_integration_recipient",
	"slack_send_message",
	"slack_list_channels",
	"slack_get_channel_history",
	"slack_search_messages",
	"slack_list_users",
	"discord_send_message",
	"discord_get_messages",
	"discord_list_channels",
	"discord_delete_message",
	"telegram_send_message",
	"github_list_repos",
	"github_get_repo",
	"github_create_issue",
	"github_get_file",
	"github_search_code",
	"gmail_send_email",
	"gmail_create_draft",
	"gmail_mark_as_read",
	"gsheets_create",
	"gcalendar_update_event",
	"gcalendar_delete_event",
	"gmaps_search_places",
	"gmaps_get_directions",
	"gmaps_geocode",
	"gmaps_reverse_geocode",
	"gdrive_list_files",
	"gdrive_get_file",
	"gdrive_search_files",
	"google_meet_create_space",
	"google_meet_create_event",
	"frappe_crm",
	"erpnext_crm",
	"erpnext_inventory",
	"erpnext_run_report",
	"erpnext_list_reports",
	"helpdesk",
	"raven",
	"erpnext",
}


class TestIntegrationTools(HufTestCase):
	def test_every_tool_is_valid_and_named_for_its_service(self):
		tools = get_integration_tools()
		names = [t["tool_name"] for t in tools]
		self.assertEqual(len(names), len(set(names)))
		for definition in tools:
			name = definition["tool_name"]
			self.assertEqual(validate_tool_def(definition), [], name)
			service = frappe.get_attr(definition["function_path"].rsplit(".", 1)[0] + ".SERVICE")
			self.assertEqual(definition["parameters"][-1]["fieldname"], "settings")
			if service is None:  # get_integration_recipient: the model names the service
				continue
			prefixes = (service + "_", UPSTREAM_PREFIXES.get(service, service + "_"))
			# a one-tool-many-actions tool is named for its service (or upstream's prefix without "_")
			whole = {service, UPSTREAM_PREFIXES.get(service, service).rstrip("_")}
			self.assertTrue(name.startswith(prefixes) or name in whole, name)
			self.assertTrue(frappe.db.exists("Integration Service", service), service)
		for name in (
			"slack_send_message",
			"telegram_send_message",
			"github_create_issue",
			"notion_create_page",
		):
			self.assertIn(name, names)
		self.assertEqual(UPSTREAM_TOOLS - set(names), set())

	def test_tools_that_send_outside_the_site_or_delete_require_approval(self):
		flagged = {t["tool_name"] for t in get_integration_tools() if t.get("requires_approval")}
		self.assertEqual(flagged, APPROVAL_TOOLS)

	def test_huf_registers_them_and_install_syncs_them(self):
		registered = {d["tool_name"] for app, d in get_registered_tools("huf")}
		self.assertTrue({t["tool_name"] for t in get_integration_tools()} <= registered)
		tool = frappe.get_doc("Agent Tool Function", "hubspot_search_deals")
		self.assertEqual((tool.types, tool.provider_app), ("App Provided", "huf"))
		self.assertEqual(tool.function_path, "huf.ai.integrations.services.hubspot.hubspot_search_deals")
