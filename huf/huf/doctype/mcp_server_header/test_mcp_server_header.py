"""MCP Server custom headers are secrets: encrypted, read back as a mask, sent in clear to the server."""

import frappe
from frappe.utils.password import get_decrypted_password

from huf.ai import mcp_client
from huf.tests.support.case import HufTestCase
from huf.tests.support.mcp_servers import demo_server, serve_streamable

TOKEN = "mcp-header-token-4d2b9e"
VALUE = f"Bearer {TOKEN}"
MASK = "*" * len(VALUE)


class TestMCPServerHeader(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.live = serve_streamable(demo_server("header-demo"), required_token=TOKEN)
		cls.addClassCleanup(cls.live.stop)

	def setUp(self):
		self.live.headers_seen.clear()

	def make_server(self, value: str = VALUE) -> str:
		return (
			frappe.get_doc(
				{
					"doctype": "MCP Server",
					"server_name": "header-demo",
					"server_url": self.live.url,
					"custom_headers": [{"header_name": "Authorization", "header_value": value}],
				}
			)
			.insert()
			.name
		)

	def connects(self, server: str) -> bool:
		"""The server (which needs the token) accepted a fresh connection."""
		self.live.headers_seen.clear()
		return mcp_client.test_mcp_connection(server)["success"]

	def test_value_is_stored_encrypted_and_sent_in_clear(self):
		server = self.make_server()
		doc = frappe.get_doc("MCP Server", server)
		row = doc.custom_headers[0]
		self.assertEqual(row.header_value, MASK)
		self.assertEqual(frappe.db.get_value("MCP Server Header", row.name, "header_value"), MASK)
		self.assertEqual(row.get_password("header_value"), VALUE)
		self.assertNotIn(TOKEN, doc.as_json())
		self.assertTrue(self.connects(server))
		self.assertIn(VALUE, [h.get("authorization") for h in self.live.headers_seen])

	def test_saving_the_mask_back_keeps_the_secret(self):
		server = self.make_server()
		doc = frappe.get_doc("MCP Server", server)
		doc.description = "edited"
		doc.save()
		doc = frappe.get_doc("MCP Server", server)
		doc.custom_headers[0].header_value = "*****"
		doc.save()
		self.assertTrue(self.connects(server))

	def test_a_typed_value_replaces_the_secret(self):
		server = self.make_server("Bearer wrong-token")
		self.assertFalse(self.connects(server))
		doc = frappe.get_doc("MCP Server", server)
		doc.custom_headers[0].header_value = VALUE
		doc.save()
		self.assertEqual(doc.custom_headers[0].header_value, MASK)
		self.assertTrue(self.connects(server))

	def test_removed_rows_and_deleted_servers_leave_no_stored_secret(self):
		server = frappe.get_doc("MCP Server", self.make_server())
		server.append("custom_headers", {"header_name": "X-Org", "header_value": "org-secret"})
		server.save()
		removed, kept = server.custom_headers
		server.remove(removed)
		server.save()
		self.assertIsNone(stored("MCP Server Header", removed.name, "header_value"))
		self.assertEqual(stored("MCP Server Header", kept.name, "header_value"), "org-secret")
		frappe.delete_doc("MCP Server", server.name)
		self.assertIsNone(stored("MCP Server Header", kept.name, "header_value"))


def stored(doctype: str, name: str, fieldname: str) -> str | None:
	"""The value kept in the encrypted store, None when there is none."""
	return get_decrypted_password(doctype, name, fieldname, raise_exception=False)
