import frappe

from huf.tests.support.case import HufTestCase


def new_server(**values):
	return frappe.get_doc(
		{
			"doctype": "MCP Server",
			"server_name": "github",
			"server_url": "https://mcp.example.com/mcp",
			**values,
		}
	)


class TestMCPServer(HufTestCase):
	def test_good_server_saves(self):
		doc = new_server(custom_headers=[{"header_name": "X-Org", "header_value": "acme"}]).insert()
		self.assertEqual(
			(doc.name, doc.auth_type, doc.transport_type, doc.timeout_seconds), ("github", "none", "http", 30)
		)

	def test_only_http_urls(self):
		for url in ("ftp://mcp.example.com", "mcp.example.com", "javascript:alert(1)"):
			with self.subTest(url), self.assertRaisesRegex(frappe.ValidationError, "http"):
				new_server(server_url=url).insert()

	def test_auth_fields_required_by_auth_type(self):
		for auth_type in ("api_key", "bearer_token", "custom_header"):
			with self.subTest(auth_type), self.assertRaises(frappe.ValidationError):
				new_server(auth_type=auth_type, auth_header_name="X-Token").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Auth Header Name is required"):
			new_server(auth_type="custom_header", auth_header_value="secret").insert()

	def test_bearer_token_uses_authorization_header_and_is_encrypted(self):
		doc = new_server(auth_type="bearer_token", auth_header_value="tok-123").insert()
		self.assertEqual(doc.auth_header_name, "Authorization")
		self.assertEqual(doc.get_password("auth_header_value"), "tok-123")
		self.assertNotEqual(frappe.db.get_value("MCP Server", doc.name, "auth_header_value"), "tok-123")

	def test_oauth_endpoints_and_params(self):
		with self.assertRaisesRegex(frappe.ValidationError, "http"):
			new_server(auth_type="oauth", oauth_token_endpoint="not a url").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "JSON object"):
			new_server(auth_type="oauth", oauth_extra_authorize_params="[1]").insert()
		new_server(
			auth_type="oauth",
			oauth_token_endpoint="https://auth.example.com/token",
			oauth_extra_authorize_params='{"access_type": "offline"}',
		).insert()

	def test_timeout_and_namespace(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Timeout"):
			new_server(timeout_seconds=5000).insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Tool Namespace"):
			new_server(tool_namespace="bad space").insert()
