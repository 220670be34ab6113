"""MCP client against real SDK servers on 127.0.0.1: transports, auth headers, sync, tools, errors, timeouts."""

from __future__ import annotations

import json
import time

import frappe
from frappe.utils import add_to_date, now_datetime

from huf.ai import mcp_client
from huf.ai.mcp.connection import MCPClientError
from huf.ai.mcp.provider import create_mcp_tools, llm_name
from huf.api import mcp as mcp_api
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.mcp_servers import demo_server, free_port, serve_sse, serve_streamable

TOKEN = "s3cret-token-9a8b7c"


def new_server(name: str, url: str, **values) -> str:
	doc = frappe.get_doc({"doctype": "MCP Server", "server_name": name, "server_url": url, **values})
	doc.insert()
	return doc.name


def delete_servers(*names: str) -> None:
	"""Delete committed MCP Servers (and commit)."""
	frappe.db.rollback()
	for name in names:
		frappe.delete_doc_if_exists("MCP Server", name, force=True)
	frappe.db.commit()


class MCPTestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.http = serve_streamable(demo_server())
		cls.sse = serve_sse(demo_server("demo-sse"))
		cls.bearer = serve_streamable(demo_server("demo-bearer"), required_token=TOKEN)
		for live in (cls.http, cls.sse, cls.bearer):
			cls.addClassCleanup(live.stop)


class TestSync(MCPTestCase):
	def test_streamable_http_sync_stores_tools_and_rows(self):
		name = new_server(
			"demo", self.http.url, custom_headers=[{"header_name": "X-Org", "header_value": "acme"}]
		)
		result = mcp_client.sync_mcp_server_tools(name)
		self.assertEqual(sorted(result["tools"]), ["add", "echo", "fail", "sleep"])
		doc = frappe.get_doc("MCP Server", name)
		self.assertTrue(doc.last_sync)
		cached = {tool["name"]: tool for tool in json.loads(doc.available_tools)}
		self.assertEqual(cached["add"]["description"], "Add two integers.")
		self.assertEqual(cached["add"]["parameters"]["required"], ["a", "b"])
		rows = {row.tool_name: row for row in doc.tools}
		self.assertEqual(set(rows), {"add", "echo", "fail", "sleep"})
		self.assertTrue(all(row.enabled for row in rows.values()))
		self.assertEqual(json.loads(rows["echo"].parameters)["properties"]["text"]["type"], "string")
		self.assertIn("acme", [h.get("x-org") for h in self.http.headers_seen])

	def test_sse_transport(self):
		name = new_server("demo-sse", self.sse.url, transport_type="sse")
		self.assertEqual(mcp_client.sync_mcp_server_tools(name)["tool_count"], 4)
		self.assertEqual(mcp_client.execute_mcp_tool(name, "add", {"a": 2, "b": 3}), "5")
		check = mcp_client.test_mcp_connection(name)
		self.assertTrue(check["success"], check)
		self.assertEqual(check["server_name"], "demo-sse")

	def test_resync_keeps_choices_and_drops_removed_tools(self):
		live = serve_streamable(demo_server("shrinking"))
		self.addCleanup(live.stop)
		name = new_server("shrinking", live.url)
		mcp_client.sync_mcp_server_tools(name)
		mcp_api.set_mcp_tool_enabled(name, "fail", 0)
		live.stop()  # the server comes back at the same address without its echo tool
		shrunk = serve_streamable(demo_server("shrinking", without=("echo",)), port=live.port)
		self.addCleanup(shrunk.stop)
		result = mcp_client.sync_mcp_server_tools(name)
		self.assertEqual(result["removed"], ["echo"])
		rows = {row.tool_name: row.enabled for row in frappe.get_doc("MCP Server", name).tools}
		self.assertEqual(rows, {"add": 1, "fail": 0, "sleep": 1})


class TestAuth(MCPTestCase):
	def test_bearer_token_is_sent_and_required(self):
		name = new_server("demo-bearer", self.bearer.url)
		with self.assertRaises(MCPClientError) as refused:
			mcp_client.sync_mcp_server_tools(name)
		self.assertIn("401", str(refused.exception))
		self.assertFalse(mcp_client.test_mcp_connection(name)["success"])

		doc = frappe.get_doc("MCP Server", name)
		doc.update({"auth_type": "bearer_token", "auth_header_value": TOKEN})
		doc.save()
		self.assertEqual(mcp_client.sync_mcp_server_tools(name)["tool_count"], 4)
		self.assertEqual(mcp_client.execute_mcp_tool(name, "echo", {"text": "hi"}), "echo: hi")

	def test_wrong_token_error_never_shows_the_secret(self):
		name = new_server(
			"demo-bearer", self.bearer.url, auth_type="bearer_token", auth_header_value="wrong-" + TOKEN
		)
		result = mcp_client.test_mcp_connection(name)
		self.assertFalse(result["success"])
		self.assertIn("refused the credentials", result["message"])
		self.assertNotIn(TOKEN, json.dumps(result))

	def test_secret_headers_stay_out_of_the_logs(self):
		import logging

		name = new_server("demo-bearer", self.bearer.url, auth_type="bearer_token", auth_header_value=TOKEN)
		root = logging.getLogger()
		level = root.level
		root.setLevel(logging.DEBUG)
		try:
			with self.assertLogs(level="DEBUG") as logs:
				logging.getLogger("huf.test").debug("start")
				self.assertEqual(mcp_client.execute_mcp_tool(name, "echo", {"text": "x"}), "echo: x")
		finally:
			root.setLevel(level)
		self.assertGreater(len(logs.output), 1)
		self.assertNotIn(TOKEN, "\n".join(logs.output))

	def test_api_key_and_custom_header(self):
		new_server("demo-key", self.http.url, auth_type="api_key", auth_header_value="key-123")
		mcp_client.test_mcp_connection("demo-key")
		self.assertIn("key-123", [h.get("x-api-key") for h in self.http.headers_seen])
		new_server(
			"demo-custom",
			self.http.url,
			auth_type="custom_header",
			auth_header_name="X-Secret",
			auth_header_value="custom-456",
			custom_headers=[{"header_name": "x-secret", "header_value": "overridden"}],
		)
		mcp_client.test_mcp_connection("demo-custom")
		seen = [h.get("x-secret") for h in self.http.headers_seen]
		self.assertIn("custom-456", seen)
		self.assertNotIn("overridden", seen)


class TestCallsAndFailures(MCPTestCase):
	def test_tool_error_is_readable(self):
		name = new_server("demo", self.http.url)
		with self.assertRaisesRegex(MCPClientError, "refused: out of paper"):
			mcp_client.execute_mcp_tool(name, "fail", {"reason": "out of paper"})

	def test_slow_server_times_out(self):
		name = new_server("demo", self.http.url, timeout_seconds=1)
		started = time.monotonic()
		with self.assertRaisesRegex(MCPClientError, "no answer within 1 seconds"):
			mcp_client.execute_mcp_tool(name, "sleep", {"seconds": 20})
		self.assertLess(time.monotonic() - started, 5)

	def test_unreachable_server(self):
		name = new_server("gone", f"http://127.0.0.1:{free_port()}/mcp", timeout_seconds=3)
		result = mcp_client.test_mcp_connection(name)
		self.assertFalse(result["success"])
		self.assertIn("could not be reached", result["message"])
		with self.assertRaises(MCPClientError):
			mcp_client.sync_mcp_server_tools(name)

	def test_disabled_server_refuses_calls(self):
		name = new_server("demo", self.http.url, enabled=0)
		with self.assertRaisesRegex(frappe.ValidationError, "disabled"):
			mcp_client.execute_mcp_tool(name, "add", {"a": 1, "b": 1})


class TestAgentTools(MCPTestCase):
	def make_agent(self, servers: list[dict]):
		return make_agent("MCP Tools Agent", agent_mcp_server=servers)

	def test_namespaced_tools_enable_disable(self):
		name = new_server("demo", self.http.url, tool_namespace="gmail")
		mcp_client.sync_mcp_server_tools(name)
		mcp_api.set_mcp_tool_enabled(name, "sleep", 0)
		agent = self.make_agent([{"mcp_server": name, "enabled": 1}])
		tools = {tool.name: tool for tool in create_mcp_tools(agent)}
		self.assertEqual(set(tools), {"gmail_add", "gmail_echo", "gmail_fail"})
		self.assertEqual(tools["gmail_add"].description, "[MCP:gmail] Add two integers.")
		self.assertTrue(tools["gmail_add"].is_mcp_tool)
		self.assertEqual(tools["gmail_add"].mcp_server, name)
		self.assertEqual(tools["gmail_add"].run({"a": 1, "b": 2}, None), "3")
		self.assertEqual(
			(agent.agent_mcp_server[0].tool_count, agent.agent_mcp_server[0].server_url), (3, self.http.url)
		)
		mcp_api.set_mcp_tool_enabled(name, "echo", 0)  # a sync or a tool change updates the agents' rows
		self.assertEqual(frappe.db.get_value("Agent MCP Server", {"parent": agent.name}, "tool_count"), 2)
		mcp_api.set_mcp_tool_enabled(name, "echo", 1)

		listed = mcp_client.get_agent_mcp_servers(agent.name)
		self.assertEqual((listed[0]["mcp_server"], listed[0]["tool_count"]), (name, 3))
		self.assertNotIn("auth_header_value", listed[0])

		agent.agent_mcp_server[0].enabled = 0
		agent.save()
		self.assertEqual(create_mcp_tools(agent), [])
		agent.agent_mcp_server[0].enabled = 1
		agent.save()
		frappe.db.set_value("MCP Server", name, "enabled", 0)
		self.assertEqual(create_mcp_tools(agent), [])

	def test_without_namespace_the_tool_name_is_kept(self):
		name = new_server("demo", self.http.url)
		mcp_client.sync_mcp_server_tools(name)
		agent = self.make_agent([{"mcp_server": name}])
		tools = {tool.name: tool for tool in create_mcp_tools(agent)}
		self.assertIn("add", tools)
		self.assertTrue(tools["add"].description.startswith("[MCP:demo] "))

	def test_llm_names(self):
		self.assertEqual(llm_name("gmail.send_email"), "gmail_send_email")
		self.assertEqual(llm_name("my tool/v2"), "my_tool_v2")
		long = llm_name("ns." + "x" * 100)
		self.assertRegex(long, r"^[a-zA-Z0-9_-]{1,64}$")
		self.assertNotEqual(llm_name("a.b", {"a_b"}), "a_b")
		self.assertRegex(llm_name("a.b", {"a_b"}), r"^[a-zA-Z0-9_-]{1,64}$")


class TestEndpointsAndAutoSync(MCPTestCase):
	def test_permissions(self):
		name = new_server("demo", self.http.url)
		make_user("mcp-huf-user@example.com", "Huf User")
		frappe.set_user("mcp-huf-user@example.com")
		try:
			with self.assertRaises(frappe.PermissionError):
				mcp_client.sync_mcp_server_tools(name)
			with self.assertRaises(frappe.PermissionError):
				mcp_api.set_mcp_tool_enabled(name, "add", 0)
			self.assertIn(name, [s["name"] for s in mcp_client.get_available_mcp_servers()])
			self.assertNotIn("auth_header_value", mcp_client.get_available_mcp_servers()[0])
			frappe.set_user("Guest")
			with self.assertRaises(frappe.PermissionError):
				mcp_client.test_mcp_connection(name)
		finally:
			frappe.set_user("Administrator")

	def test_available_servers_lists_only_enabled(self):
		new_server("demo", self.http.url)
		new_server("off", self.http.url, enabled=0)
		names = [s["name"] for s in mcp_client.get_available_mcp_servers()]
		self.assertIn("demo", names)
		self.assertNotIn("off", names)

	def test_auto_sync_respects_interval(self):
		# the job commits after each server: these servers are deleted again (also if a run died)
		names = ("due", "recent", "manual")
		delete_servers(*names)
		self.addCleanup(delete_servers, *names)
		due = new_server("due", self.http.url, enable_auto_sync=1, auto_sync_interval=2)
		recent = new_server("recent", self.http.url, enable_auto_sync=1, auto_sync_interval=2)
		manual = new_server("manual", self.http.url)
		frappe.db.set_value("MCP Server", due, "last_sync", add_to_date(now_datetime(), hours=-3))
		frappe.db.set_value("MCP Server", recent, "last_sync", add_to_date(now_datetime(), hours=-1))
		result = mcp_client.auto_sync_mcp_server_tools()
		self.assertIn(due, result["synced"])
		self.assertNotIn(recent, result["synced"])
		self.assertNotIn(manual, result["synced"])
		self.assertEqual(len(frappe.get_doc("MCP Server", due).tools), 4)
		self.assertEqual(len(frappe.get_doc("MCP Server", manual).tools), 0)

	def test_auto_sync_is_an_hourly_job_not_an_endpoint(self):
		self.assertIn(
			"huf.ai.mcp_client.auto_sync_mcp_server_tools", frappe.get_hooks("scheduler_events")["hourly"]
		)
		self.assertFalse(getattr(mcp_client.auto_sync_mcp_server_tools, "whitelisted", False))
		from frappe import is_whitelisted

		with self.assertRaises(frappe.PermissionError):
			is_whitelisted(mcp_client.auto_sync_mcp_server_tools)
