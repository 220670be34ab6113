"""The patch moves header values an older Huf stored in clear into the encrypted store."""

import frappe
from frappe.utils.password import get_decrypted_password, remove_encrypted_password

from huf.ai.http.tests.test_safe_http import make_http_tool
from huf.patches import encrypt_header_values
from huf.tests.support.case import HufTestCase


def store_in_clear(doctype: str, name: str, fieldname: str, value: str) -> None:
	"""What an older version left behind: the value in its column, nothing in `__Auth`."""
	remove_encrypted_password(doctype, name, fieldname)
	frappe.db.set_value(doctype, name, fieldname, value, update_modified=False)


class TestEncryptHeaderValues(HufTestCase):
	def test_plain_values_are_encrypted_and_masked_once(self):
		tool = frappe.get_doc(
			"Agent Tool Function",
			make_http_tool(
				"patch_header_tool",
				"http://127.0.0.1:9/",
				headers={"X-Old": "old-tool-secret", "X-New": "already-encrypted", "X-Empty": ""},
			),
		)
		old, new, empty = tool.http_headers
		server = frappe.get_doc(
			{
				"doctype": "MCP Server",
				"server_name": "patch-demo",
				"server_url": "http://127.0.0.1:9/mcp",
				"custom_headers": [{"header_name": "X-Org-Key", "header_value": "x"}],
			}
		).insert()
		row = server.custom_headers[0]
		store_in_clear("Agent Tool HTTP Header", old.name, "value", "old-tool-secret")
		store_in_clear("MCP Server Header", row.name, "header_value", "old-mcp-secret")

		for _run in range(2):  # a second run changes nothing
			encrypt_header_values.execute()
			self.assertEqual(
				frappe.db.get_value("Agent Tool HTTP Header", old.name, "value"), "*" * len("old-tool-secret")
			)
			self.assertEqual(
				get_decrypted_password("Agent Tool HTTP Header", old.name, "value"), "old-tool-secret"
			)
			self.assertEqual(
				get_decrypted_password("Agent Tool HTTP Header", new.name, "value"), "already-encrypted"
			)
			self.assertFalse(frappe.db.get_value("Agent Tool HTTP Header", empty.name, "value"))
			self.assertIsNone(
				get_decrypted_password("Agent Tool HTTP Header", empty.name, "value", raise_exception=False)
			)
			self.assertEqual(
				frappe.db.get_value("MCP Server Header", row.name, "header_value"),
				"*" * len("old-mcp-secret"),
			)
			self.assertEqual(
				get_decrypted_password("MCP Server Header", row.name, "header_value"), "old-mcp-secret"
			)

	def test_a_value_left_in_clear_still_works_before_the_patch(self):
		tool = make_http_tool("patch_header_tool", "http://127.0.0.1:9/", headers={"X-Old": "x"})
		row = frappe.get_doc("Agent Tool Function", tool).http_headers[0]
		store_in_clear("Agent Tool HTTP Header", row.name, "value", "old-tool-secret")
		row = frappe.get_doc("Agent Tool Function", tool).http_headers[0]
		self.assertEqual(row.get_password("value"), "old-tool-secret")

	def test_patch_is_listed(self):
		with open(frappe.get_app_path("huf", "patches.txt")) as patches:
			self.assertIn("huf.patches.encrypt_header_values", patches.read().split())
