"""Upstream Huf's 46 integration tools resolve in Huf: each name is a tool (Huf's own, or upstream's name of it),
each upstream function path resolves to the Huf function, and an agent seeded from upstream works."""

import frappe

from huf.ai.integrations.services import get_integration_tools
from huf.ai.integrations.services.upstream_names import UPSTREAM_TOOLS
from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.app_sync import sync_tools
from huf.ai.tools.registry import agent_tool_provider, load_tool
from huf.huf.app_tools import find_registered_tool
from huf.tests.support.case import HufTestCase

RECORD = "upstream-seeded-slack-reply"
AGENT = "Upstream Seeded Agent"


class TestUpstreamToolNames(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		sync_tools(["huf"], force=True)
		frappe.db.commit()

	def tearDown(self):
		frappe.db.rollback()
		for doctype, name in (("Agent", AGENT), ("Agent Tool Function", RECORD)):
			if frappe.db.exists(doctype, name):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def test_the_mapping_covers_upstreams_46_tools(self):
		self.assertEqual(len(UPSTREAM_TOOLS), 46)
		paths = [path for _name, path in UPSTREAM_TOOLS.values()]
		self.assertEqual(len(paths), len(set(paths)))

	def test_every_upstream_name_is_a_tool_running_the_huf_function(self):
		definitions = {d["tool_name"]: d for d in get_integration_tools()}
		for upstream, (huf, _path) in UPSTREAM_TOOLS.items():
			with self.subTest(tool=upstream):
				self.assertIn(huf, definitions)
				self.assertIn(upstream, definitions)
				self.assertEqual(definitions[upstream]["function_path"], definitions[huf]["function_path"])
				self.assertEqual(definitions[upstream]["parameters"], definitions[huf]["parameters"])
				doc = frappe.get_doc("Agent Tool Function", upstream)
				self.assertEqual((doc.types, doc.provider_app), ("App Provided", "huf"))
				self.assertEqual(doc.function_path, definitions[huf]["function_path"])

	def test_every_upstream_function_path_resolves_to_the_huf_function(self):
		definitions = {d["tool_name"]: d for d in get_integration_tools()}
		for huf, path in UPSTREAM_TOOLS.values():
			with self.subTest(path=path):
				app, definition = find_registered_tool(path)
				self.assertEqual(app, "huf")
				self.assertEqual(definition["function_path"], definitions[huf]["function_path"])
		self.assertIsNone(find_registered_tool("huf.ai.tools.erpnext.handle_unknown"))

	def test_an_upstream_tool_record_is_saved_with_the_huf_path(self):
		doc = frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": RECORD,
				"types": "App Provided",
				"tool_type": "Integrations",
				"provider_app": "huf",
				"function_path": "huf.ai.tools.slack.handle_send_message_thread",
				"description": "Reply in a Slack thread (as upstream Huf exported it).",
			}
		).insert(ignore_permissions=True)
		self.assertEqual(doc.function_path, "huf.ai.integrations.services.slack.slack_reply_in_thread")

	def test_an_agent_seeded_with_upstreams_tool_names_gets_those_tools(self):
		from huf.tests.support.factories import make_agent

		names = [
			"slack_send_thread_reply",
			"gmail_get_emails",
			"gsheets_update",
			"erpnext_run_report",
			"raven",
		]
		agent = make_agent(AGENT, agent_tool=[{"tool": name} for name in names])
		tools = agent_tool_provider(agent, ToolContext(agent=agent.name))
		self.assertEqual([t.name for t in tools], names)
		self.assertEqual(
			load_tool("slack_send_thread_reply").spec.function_path,
			"huf.ai.integrations.services.slack.slack_reply_in_thread",
		)
		self.assertTrue(load_tool("slack_send_thread_reply").requires_approval)  # it sends, like Huf's
