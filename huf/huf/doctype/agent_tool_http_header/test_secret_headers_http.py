"""Secret header values of HTTP tools and MCP servers over real HTTP: never returned, kept on a masked save."""

import json

import frappe

from huf.ai.http.tests.test_safe_http import EchoServer, make_http_tool
from huf.ai.tools.handlers.http import tool_config
from huf.tests.support.mcp_servers import demo_server, serve_streamable
from huf.tests.support.runs import LiveAgentTestCase

USER = "huf-secret-headers-user@example.com"
MANAGER = "huf-secret-headers-manager@example.com"
TOOL_SECRET = "tool-hdr-secret-8c41d7"
MCP_TOKEN = "mcp-hdr-token-2e97a5"
SECRETS = (TOOL_SECRET, MCP_TOKEN)


def resource(doctype: str, name: str | None = None) -> str:
	return f"/api/resource/{doctype}" + (f"/{name}" if name else "")


class TestSecretHeadersOverHTTP(LiveAgentTestCase):
	AGENT = "Secret Headers Agent"
	PROVIDER = "Secret Headers LLM"
	MODEL = "secret-headers-model"
	users = ((USER, ("Huf User",)), (MANAGER, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.echo = EchoServer()
		cls.addClassCleanup(cls.echo.close)
		cls.mcp = serve_streamable(demo_server("secret-headers"), required_token=MCP_TOKEN)
		cls.addClassCleanup(cls.mcp.stop)
		suffix = frappe.generate_hash(length=8)
		cls.tool = cls.make_tool(f"secret_hdr_{suffix}")
		cls.server = (
			frappe.get_doc(
				{
					"doctype": "MCP Server",
					"server_name": f"secret-hdr-{suffix}",
					"server_url": cls.mcp.url,
					"custom_headers": [
						{"header_name": "Authorization", "header_value": f"Bearer {MCP_TOKEN}"}
					],
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.addClassCleanup(cls.delete, "MCP Server", cls.server)
		agent = frappe.get_doc("Agent", cls.AGENT)
		agent.append("agent_tool", {"tool": cls.tool})
		agent.append("agent_mcp_server", {"mcp_server": cls.server, "enabled": 1})
		agent.save(ignore_permissions=True)
		frappe.db.commit()

	@classmethod
	def make_tool(cls, name: str) -> str:
		"""A committed GET tool on the echo server with the secret header (deleted with the class)."""
		tool = make_http_tool(name, cls.echo.url("/"), headers={"X-Api-Key": TOOL_SECRET})
		frappe.db.commit()
		cls.addClassCleanup(cls.delete, "Agent Tool Function", tool)
		return tool

	@staticmethod
	def delete(doctype: str, name: str) -> None:
		frappe.db.rollback()
		frappe.delete_doc_if_exists(doctype, name, force=True)
		frappe.db.commit()

	def assertNoSecret(self, response, status: int = 200) -> dict:
		self.assertEqual(response.status_code, status, f"{response.request.url}: {response.text[:500]}")
		for secret in SECRETS:
			self.assertNotIn(secret, response.text, response.request.url)
		return response.json() if "json" in response.headers.get("content-type", "") else {}

	def test_no_endpoint_returns_a_header_value(self):
		tool_mask = "*" * len(TOOL_SECRET)
		mcp_mask = "*" * len(f"Bearer {MCP_TOKEN}")
		for user in (USER, MANAGER):
			with self.subTest(user):
				client = self.client(user)
				tool = self.assertNoSecret(client.get(resource("Agent Tool Function", self.tool)))["data"]
				self.assertEqual(tool["http_headers"][0]["value"], tool_mask)
				server = self.assertNoSecret(client.get(resource("MCP Server", self.server)))["data"]
				self.assertEqual(server["custom_headers"][0]["header_value"], mcp_mask)
				got = self.assertNoSecret(
					client.get(
						"/api/method/frappe.client.get", params={"doctype": "MCP Server", "name": self.server}
					)
				)["message"]
				self.assertEqual(got["custom_headers"][0]["header_value"], mcp_mask)
				for doctype, name, field in (
					("Agent Tool Function", self.tool, "http_headers.value"),
					("MCP Server", self.server, "custom_headers.header_value"),
				):
					listed = client.get(
						"/api/method/frappe.client.get_list",
						params={
							"doctype": doctype,
							"fields": json.dumps(["name", field]),
							"filters": json.dumps({"name": name}),
						},
					)
					self.assertNoSecret(listed)
					self.assertIn("*" * 8, listed.text)
					self.assertNoSecret(
						client.get(
							resource(doctype),
							params={
								"fields": json.dumps(["name", field]),
								"filters": json.dumps({"name": name}),
							},
						)
					)
				for child, parent, field, name in (
					("Agent Tool HTTP Header", "Agent Tool Function", "value", self.tool),
					("MCP Server Header", "MCP Server", "header_value", self.server),
				):
					rows = client.get(
						"/api/method/frappe.client.get_list",
						params={
							"doctype": child,
							"parent": parent,
							"fields": json.dumps([field]),
							"filters": json.dumps({"parent": name}),
						},
					)
					(stored,) = [row[field] for row in self.assertNoSecret(rows)["message"]]
					self.assertEqual(set(stored), {"*"})
				for method, params in (
					("huf.ai.mcp_client.get_agent_mcp_servers", {"agent_name": self.AGENT}),
					("huf.ai.mcp_client.get_available_mcp_servers", {}),
					("huf.ai.mcp_client.test_mcp_connection", {"server_name": self.server}),
				):
					answer = self.assertNoSecret(client.get(f"/api/method/{method}", params=params))
					if method.endswith("test_mcp_connection"):
						self.assertTrue(answer["message"]["success"], answer)  # the header was sent
				self.assertNoSecret(client.get(resource("Agent", self.AGENT)))
				self.assertNoSecret(client.get("/huf"))

	def test_a_masked_save_keeps_the_secret_and_a_typed_value_replaces_it(self):
		tool = self.make_tool(f"secret_hdr_save_{frappe.generate_hash(length=8)}")
		client = self.client(MANAGER)
		csrf = {"X-Frappe-CSRF-Token": self.csrf_token(client)}
		loaded = self.assertNoSecret(client.get(resource("Agent Tool Function", tool)))["data"]
		row = loaded["http_headers"][0]
		for value in (row["value"], "*****"):  # the mask as loaded, and the dashboard's fixed mask
			body = {
				"description": "Edited.",
				"http_headers": [{"name": row["name"], "key": row["key"], "value": value}],
			}
			saved = self.assertNoSecret(
				client.put(resource("Agent Tool Function", tool), json=body, headers=csrf)
			)
			self.assertEqual(set(saved["data"]["http_headers"][0]["value"]), {"*"})
			frappe.db.rollback()
			self.assertEqual(tool_config(tool)[1], {"X-Api-Key": TOOL_SECRET})

		body = {"http_headers": [{"name": row["name"], "key": row["key"], "value": "typed-new-secret-61"}]}
		saved = client.put(resource("Agent Tool Function", tool), json=body, headers=csrf)
		self.assertEqual(saved.status_code, 200, saved.text)
		self.assertNotIn("typed-new-secret-61", saved.text)
		frappe.db.rollback()
		self.assertEqual(tool_config(tool)[1], {"X-Api-Key": "typed-new-secret-61"})

	def test_a_masked_save_of_an_mcp_server_keeps_its_header(self):
		client = self.client()
		token = {"Authorization": self.api_token("Administrator")}
		loaded = self.assertNoSecret(client.get(resource("MCP Server", self.server), headers=token))["data"]
		body = {"description": "Edited.", "custom_headers": loaded["custom_headers"]}
		self.assertNoSecret(client.put(resource("MCP Server", self.server), json=body, headers=token))
		check = client.get(
			"/api/method/huf.ai.mcp_client.test_mcp_connection",
			params={"server_name": self.server},
			headers=token,
		)
		self.assertTrue(self.assertNoSecret(check)["message"]["success"], check.text)
