"""stdio MCP Servers over REST: only a System Manager creates or changes one, and only with a key of the
site's allow-list; Guests, Huf Users and Huf Managers are refused."""

from urllib.parse import quote

import frappe

from huf.ai.mcp.stdio import CONFIG_KEY
from huf.tests.support.committed import delete_committed
from huf.tests.support.config import set_site_config
from huf.tests.support.role_sessions import ALICE, MANAGER, RoleSessionsTestCase

SYSTEM_MANAGER = "sessions-system-manager@example.com"
SERVER = "rest-stdio-time"
STDIO = {"server_name": SERVER, "transport_type": "stdio", "stdio_server": "time"}


class TestStdioServerOverREST(RoleSessionsTestCase):
	users = (*RoleSessionsTestCase.users, (SYSTEM_MANAGER, ("System Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		# never started here: creating a record runs no command
		set_site_config(CONFIG_KEY, {"time": {"command": "mcp-server-time", "args": []}})
		cls.addClassCleanup(set_site_config, CONFIG_KEY, None)

	def setUp(self):
		super().setUp()
		self.addCleanup(delete_committed, "MCP Server", SERVER)

	def test_only_a_system_manager_creates_or_changes_a_stdio_server(self):
		for label, client in (
			("Guest", self.client()),
			("Huf User", self.session(ALICE)),
			("Huf Manager", self.session(MANAGER)),
		):
			with self.subTest(label):
				response = client.post("/api/resource/MCP Server", json=STDIO)
				self.assertIn(response.status_code, (401, 403), f"{label}: {response.text}")
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("MCP Server", SERVER))

		admin = self.session(SYSTEM_MANAGER)
		refused = admin.post("/api/resource/MCP Server", json={**STDIO, "stdio_server": "bash"})
		self.assertEqual(refused.status_code, 417, refused.text)
		self.assertIn("allow-list", refused.text)
		created = admin.post("/api/resource/MCP Server", json=STDIO)
		self.assertEqual(created.status_code, 200, created.text)
		self.assertEqual(
			(created.json()["data"]["transport_type"], created.json()["data"]["stdio_server"]),
			("stdio", "time"),
		)

		for label, client in (("Huf User", self.session(ALICE)), ("Huf Manager", self.session(MANAGER))):
			with self.subTest(label):
				change = client.put(
					f"/api/resource/MCP Server/{quote(SERVER)}", json={"stdio_server": "bash"}
				)
				self.assertEqual(change.status_code, 403, f"{label}: {change.text}")
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("MCP Server", SERVER, "stdio_server"), "time")
