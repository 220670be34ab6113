"""HTTP tool headers are secrets: encrypted in `__Auth`, masked in their column, sent in clear to the tool's host."""

import frappe
from frappe.utils.password import get_decrypted_password

from huf.ai.http.tests.test_safe_http import EchoServersCase, allowed, make_http_tool
from huf.ai.tools.handlers.http import call_http_tool

SECRET = "hdr-secret-5f1c2e9a"
MASK = "*" * len(SECRET)


class TestAgentToolHTTPHeader(EchoServersCase):
	def make_tool(self, value: str = SECRET) -> str:
		return make_http_tool("secret_header_tool", self.server.url("/"), headers={"X-Api-Key": value})

	def sent_key(self, tool: str) -> str | None:
		"""The X-Api-Key the tool's host received on a fresh call."""
		self.server.requests.clear()
		with allowed(f"127.0.0.1:{self.server.port}"):
			result = call_http_tool(tool, "GET", "/echo")
		self.assertTrue(result["success"], result)
		return self.server.requests[-1]["headers"].get("x-api-key")

	def test_value_is_stored_encrypted_and_read_as_a_mask(self):
		tool = self.make_tool()
		doc = frappe.get_doc("Agent Tool Function", tool)
		row = doc.http_headers[0]
		self.assertEqual(row.value, MASK)
		self.assertEqual(frappe.db.get_value("Agent Tool HTTP Header", row.name, "value"), MASK)
		self.assertEqual(get_decrypted_password("Agent Tool HTTP Header", row.name, "value"), SECRET)
		self.assertEqual(row.get_password("value"), SECRET)
		self.assertNotIn(SECRET, doc.as_json())
		self.assertNotIn(SECRET, frappe.as_json(frappe.get_all("Agent Tool HTTP Header", fields=["*"])))
		self.assertEqual(self.sent_key(tool), SECRET)

	def test_saving_the_mask_back_keeps_the_secret(self):
		tool = self.make_tool()
		doc = frappe.get_doc("Agent Tool Function", tool)
		doc.description = "Calls the test API (edited)."
		doc.save()
		self.assertEqual(self.sent_key(tool), SECRET)
		doc = frappe.get_doc("Agent Tool Function", tool)
		doc.http_headers[0].value = "*****"  # a mask of another length (as a form may send it)
		doc.save()
		self.assertEqual(self.sent_key(tool), SECRET)
		self.assertEqual(
			frappe.get_doc("Agent Tool Function", tool).http_headers[0].get_password("value"), SECRET
		)

	def test_a_typed_value_replaces_it_and_an_empty_one_removes_it(self):
		tool = self.make_tool()
		doc = frappe.get_doc("Agent Tool Function", tool)
		doc.http_headers[0].value = "replaced-value-77"
		doc.save()
		self.assertEqual(doc.http_headers[0].value, "*" * len("replaced-value-77"))
		self.assertEqual(self.sent_key(tool), "replaced-value-77")
		doc = frappe.get_doc("Agent Tool Function", tool)
		doc.http_headers[0].value = ""
		doc.save()
		self.assertIsNone(doc.http_headers[0].get_password("value", raise_exception=False))
		self.assertIsNone(self.sent_key(tool))

	def test_new_rows_beside_saved_ones_get_their_own_secret(self):
		tool = self.make_tool()
		doc = frappe.get_doc("Agent Tool Function", tool)
		doc.append("http_headers", {"key": "X-Other", "value": "other-secret-31"})
		doc.save()
		doc = frappe.get_doc("Agent Tool Function", tool)
		self.assertEqual(
			[(row.key, row.get_password("value")) for row in doc.http_headers],
			[("X-Api-Key", SECRET), ("X-Other", "other-secret-31")],
		)
		self.server.requests.clear()
		with allowed(f"127.0.0.1:{self.server.port}"):
			call_http_tool(tool, "GET", "/echo")
		self.assertEqual(self.server.requests[-1]["headers"]["x-other"], "other-secret-31")

	def test_removed_rows_and_deleted_tools_leave_no_stored_secret(self):
		tool = make_http_tool(
			"secret_header_tool", self.server.url("/"), headers={"X-Api-Key": SECRET, "X-Other": "other-31"}
		)
		doc = frappe.get_doc("Agent Tool Function", tool)
		removed, kept = doc.http_headers
		doc.remove(removed)
		doc.save()
		self.assertIsNone(stored("Agent Tool HTTP Header", removed.name, "value"))
		self.assertEqual(stored("Agent Tool HTTP Header", kept.name, "value"), "other-31")
		frappe.delete_doc("Agent Tool Function", tool)
		self.assertIsNone(stored("Agent Tool HTTP Header", kept.name, "value"))


def stored(doctype: str, name: str, fieldname: str) -> str | None:
	"""The value kept in the encrypted store, None when there is none."""
	return get_decrypted_password(doctype, name, fieldname, raise_exception=False)
