"""The hourly MCP auto-sync (huf.ai.mcp.sync.auto_sync) logs no error when a server syncs fine."""

import frappe
from frappe.utils import now_datetime

from huf.tests.support.case import HufTestCase
from huf.tests.support.committed import delete_committed, unique


class TestMcpAutoSync(HufTestCase):
	@classmethod
	def setUpClass(cls):
		from huf.tests.support.mcp_servers import demo_server, serve_streamable

		super().setUpClass()
		cls.live = serve_streamable(demo_server())
		cls.addClassCleanup(cls.live.stop)

	def test_a_successful_auto_sync_logs_no_error(self):
		from huf.ai.mcp_client import auto_sync_mcp_server_tools

		started = now_datetime()
		name = unique("auto-sync")
		frappe.get_doc(
			{
				"doctype": "MCP Server",
				"server_name": name,
				"server_url": self.live.url,
				"enable_auto_sync": 1,
				"auto_sync_interval": 1,
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(delete_committed, "MCP Server", name)

		result = auto_sync_mcp_server_tools()

		self.assertIn(name, result["synced"])
		self.assertEqual(len(frappe.get_doc("MCP Server", name).tools), 4)
		logged = frappe.get_all(
			"Error Log", filters={"creation": (">=", started)}, fields=["method", "error"], limit=50
		)
		self.assertEqual([e.method for e in logged if "MCP" in f"{e.method} {e.error}"], [])
