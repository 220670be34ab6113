"""OAuth 2.1 against an in-test authorization server and an OAuth-protected MCP server, over real HTTP.

Discovery (protected-resource, then authorization-server metadata), dynamic client registration,
authorization code + PKCE through /mcp-oauth-callback on the site's own web server, token storage,
refresh, expiry and disconnect.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import frappe
import httpx
from frappe.utils import add_to_date, now_datetime

from huf.ai import mcp_client
from huf.ai.mcp.connection import MCPClientError
from huf.api import mcp as mcp_api
from huf.tests.support.case import HufTestCase
from huf.tests.support.mcp_servers import AuthorizationServer, oauth_protected_server
from huf.tests.support.web import serve_site

SERVER = "oauth-demo"


class TestMCPOAuth(HufTestCase):
	@classmethod
	def setUpClass(cls):
		from frappe.core.doctype.user.user import generate_keys

		super().setUpClass()
		cls.auth_server = AuthorizationServer().start()
		cls.addClassCleanup(cls.auth_server.stop)
		cls.mcp = oauth_protected_server(cls.auth_server)
		cls.addClassCleanup(cls.mcp.stop)

		keys = generate_keys("Administrator")
		secret = keys["api_secret"] if isinstance(keys, dict) else keys
		key = frappe.db.get_value("User", "Administrator", "api_key")
		frappe.db.commit()
		cls.site, cls.base = serve_site()
		cls.addClassCleanup(cls.site.shutdown)
		cls.admin = httpx.Client(
			base_url=cls.base, headers={"Authorization": f"token {key}:{secret}"}, timeout=60
		)
		cls.addClassCleanup(cls.admin.close)

	def setUp(self):
		super().setUp()
		self.delete_server()
		frappe.get_doc(
			{
				"doctype": "MCP Server",
				"server_name": SERVER,
				"server_url": self.mcp.url,
				"auth_type": "oauth",
				"oauth_scope": "tools",
				"oauth_redirect_uri": self.base + "/mcp-oauth-callback",
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(self.delete_server)

	def delete_server(self):
		frappe.db.rollback()
		if frappe.db.exists("MCP Server", SERVER):
			frappe.delete_doc("MCP Server", SERVER, force=True, ignore_permissions=True)
		frappe.db.commit()

	def connect(self) -> str:
		"""Connect as a user would: start, follow the provider's redirect to the callback page."""
		started = self.admin.post("/api/method/huf.api.mcp.start_mcp_oauth", json={"server_name": SERVER})
		self.assertEqual(started.status_code, 200, started.text)
		url = started.json()["message"]["authorization_url"]
		redirect = httpx.get(url, follow_redirects=False)
		self.assertEqual(redirect.status_code, 302, redirect.text)
		callback = redirect.headers["location"]
		page = self.admin.get(callback.removeprefix(self.base))
		self.assertEqual(page.status_code, 200)
		self.assertIn("is connected", page.text)
		frappe.db.rollback()
		return callback

	def test_discovery_registration_pkce_and_tools(self):
		self.assertFalse(mcp_client.test_mcp_connection(SERVER)["success"])

		started = self.admin.post("/api/method/huf.api.mcp.start_mcp_oauth", json={"server_name": SERVER})
		query = parse_qs(urlsplit(started.json()["message"]["authorization_url"]).query)
		self.assertEqual(query["code_challenge_method"], ["S256"])
		self.assertEqual(query["resource"], [self.mcp.url])
		self.assertEqual(query["scope"], ["tools"])
		[client_id] = query["client_id"]
		self.assertIn(client_id, self.auth_server.clients)  # registered dynamically
		self.assertEqual(
			self.auth_server.clients[client_id]["redirect_uris"], [self.base + "/mcp-oauth-callback"]
		)

		frappe.db.rollback()  # a new transaction sees what the web server committed
		self.assertEqual(frappe.db.get_value("MCP Server", SERVER, "oauth_client_id"), client_id)
		doc = frappe.get_doc("MCP Server", SERVER)
		self.assertEqual(doc.oauth_discovery_status, "Discovered")
		# where the server publishes its protected-resource metadata (the path differs between SDK versions)
		self.assertTrue(doc.oauth_resource_metadata_url.startswith(self.mcp.base + "/"))
		metadata = httpx.get(doc.oauth_resource_metadata_url).json()
		self.assertEqual(metadata["resource"], self.mcp.url)
		self.assertEqual(
			[s.rstrip("/") for s in metadata["authorization_servers"]], [self.auth_server.issuer]
		)
		self.assertEqual(doc.oauth_authorization_server.rstrip("/"), self.auth_server.issuer)
		self.assertEqual(doc.oauth_token_endpoint, self.auth_server.issuer + "/token")
		self.assertEqual(doc.oauth_registration_endpoint, self.auth_server.issuer + "/register")

		self.connect()
		doc = frappe.get_doc("MCP Server", SERVER)
		self.assertEqual(doc.oauth_status, "Connected")
		token = doc.get_password("oauth_access_token")
		self.assertIn(token, self.auth_server.access_tokens)
		self.assertNotEqual(frappe.db.get_value("MCP Server", SERVER, "oauth_access_token"), token)
		exchange = self.auth_server.token_requests[-1]
		self.assertEqual(exchange["grant_type"], "authorization_code")
		self.assertTrue(exchange["code_verifier"])

		self.assertEqual(mcp_client.sync_mcp_server_tools(SERVER)["tool_count"], 4)
		self.assertEqual(mcp_client.execute_mcp_tool(SERVER, "add", {"a": 20, "b": 22}), "42")
		self.assertTrue(mcp_client.test_mcp_connection(SERVER)["success"])

	def test_callback_link_works_once(self):
		callback = self.connect()
		again = self.admin.get(callback.removeprefix(self.base))
		self.assertIn("expired or was already used", again.text)

	def test_refresh_and_expiry(self):
		self.connect()
		old = frappe.get_doc("MCP Server", SERVER).get_password("oauth_access_token")
		frappe.db.set_value(
			"MCP Server", SERVER, "oauth_token_expires_at", add_to_date(now_datetime(), minutes=-1)
		)
		self.assertEqual(mcp_client.execute_mcp_tool(SERVER, "echo", {"text": "hi"}), "echo: hi")
		self.assertEqual(self.auth_server.token_requests[-1]["grant_type"], "refresh_token")
		new = frappe.get_doc("MCP Server", SERVER).get_password("oauth_access_token")
		self.assertNotEqual(new, old)

		self.auth_server.access_tokens.clear()  # revoked before its expiry: refreshed on the 401
		self.assertEqual(mcp_client.execute_mcp_tool(SERVER, "add", {"a": 1, "b": 1}), "2")
		self.assertEqual(self.auth_server.token_requests[-1]["grant_type"], "refresh_token")

		self.auth_server.refresh_tokens.clear()  # the provider revoked the grant
		frappe.db.set_value(
			"MCP Server", SERVER, "oauth_token_expires_at", add_to_date(now_datetime(), minutes=-1)
		)
		with self.assertRaisesRegex(MCPClientError, "connect again"):
			mcp_client.execute_mcp_tool(SERVER, "echo", {"text": "hi"})
		self.assertEqual(frappe.db.get_value("MCP Server", SERVER, "oauth_status"), "Expired")

	def test_provider_refusal_and_disconnect(self):
		started = self.admin.post("/api/method/huf.api.mcp.start_mcp_oauth", json={"server_name": SERVER})
		state = parse_qs(urlsplit(started.json()["message"]["authorization_url"]).query)["state"][0]
		page = self.admin.get("/mcp-oauth-callback", params={"error": "access_denied", "state": state})
		self.assertIn("did not grant access", page.text)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("MCP Server", SERVER, "oauth_status"), "Error")

		self.connect()
		mcp_api.disconnect_mcp_oauth(SERVER)
		doc = frappe.get_doc("MCP Server", SERVER)
		self.assertEqual(doc.oauth_status, "Not Connected")
		self.assertFalse(doc.get_password("oauth_access_token", raise_exception=False))
		self.assertFalse(mcp_client.test_mcp_connection(SERVER)["success"])

	def test_guest_is_sent_to_login(self):
		page = httpx.get(self.base + "/mcp-oauth-callback?code=x&state=y", follow_redirects=False)
		self.assertIn(page.status_code, (301, 302, 303))
		self.assertTrue(page.headers["location"].startswith("/login?redirect-to="))
