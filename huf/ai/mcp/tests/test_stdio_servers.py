"""stdio MCP servers: the allow-list, who may set one up, the child's environment, and the pooled process,
with the real `mcp-server-time` from PyPI (a test dependency) and a tiny SDK server that reports itself."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.mcp.connection import MCPClientError
from huf.ai.mcp.stdio import CONFIG_KEY, stop_all
from huf.ai.mcp_client import execute_mcp_tool, sync_mcp_server_tools
from huf.tests.support.config import set_site_config
from huf.tests.support.factories import make_user
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase, delete_users

ENV_SERVER = os.path.join(os.path.dirname(__file__), "stdio_env_server.py")
ALLOW_LIST = {
	"time": {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
	"env-echo": {"command": sys.executable, "args": [ENV_SERVER], "env": {"ECHO_TOKEN": "allow-listed"}},
}
WORKER_SECRET = "HUF_STDIO_TEST_WORKER_SECRET"
MANAGER = "stdio-manager@example.com"
SERVERS = ("stdio-time", "stdio-echo", "stdio-refused", "stdio-http", "stdio-slow")


def tool_call_reply(name: str, args: dict) -> Reply:
	return Reply(content="", tool_calls=[tool_call(name, args)])


class TestStdioServers(RuntimeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		set_site_config(CONFIG_KEY, ALLOW_LIST)
		cls.addClassCleanup(set_site_config, CONFIG_KEY, None)
		cls.addClassCleanup(stop_all)
		cls.addClassCleanup(cls.delete_records)
		os.environ[WORKER_SECRET] = "sk-worker-environment-secret"
		cls.addClassCleanup(os.environ.pop, WORKER_SECRET, None)
		make_user(MANAGER, "Huf Manager")
		cls.addClassCleanup(delete_users, [MANAGER])
		cls.time_server = cls.make_server("stdio-time", "time")
		cls.echo_server = cls.make_server("stdio-echo", "env-echo")

	@classmethod
	def make_server(cls, name: str, key: str, **values) -> str:
		if frappe.db.exists("MCP Server", name):
			frappe.delete_doc("MCP Server", name, force=True, ignore_permissions=True)
		frappe.get_doc(
			{"doctype": "MCP Server", "server_name": name, "transport_type": "stdio", "stdio_server": key}
			| values
		).insert()
		sync_mcp_server_tools(name)
		frappe.db.commit()
		return name

	@classmethod
	def delete_records(cls):
		frappe.set_user("Administrator")
		for agent in frappe.get_all("Agent", filters={"agent_name": ("like", "Stdio %")}, pluck="name"):
			frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
		for name in SERVERS:
			if frappe.db.exists("MCP Server", name):
				frappe.delete_doc("MCP Server", name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def agent_with(self, server: str, name: str) -> str:
		return self.make_agent(name, agent_mcp_server=[{"mcp_server": server, "enabled": 1}])

	def environment_of_a_run(self, agent: str) -> dict:
		"""What the env-echo server reported in one agent run that calls its `environment` tool."""
		self.llm.queue(tool_call_reply("environment", {}), "Done.")
		result = run_agent_sync(agent, "Where do you run?", now=1)
		self.assertTrue(result["success"], result)
		return json.loads(self.llm.chat_requests[-1]["body"]["messages"][-1]["content"])

	def test_tools_sync_from_the_time_server(self):
		doc = frappe.get_doc("MCP Server", self.time_server)
		self.assertEqual(doc.server_url, "")
		tools = {row.tool_name: json.loads(row.parameters) for row in doc.tools}
		self.assertIn("get_current_time", tools)
		self.assertIn("convert_time", tools)
		self.assertIn("timezone", tools["get_current_time"]["properties"])

	def test_an_agent_run_calls_get_current_time(self):
		agent = self.agent_with(self.time_server, "Stdio Time Agent")
		self.llm.queue(tool_call_reply("get_current_time", {"timezone": "UTC"}), "It is late in UTC.")
		result = run_agent_sync(agent, "What time is it in UTC?", now=1)
		self.assertTrue(result["success"], result)
		self.assertEqual(result["response"], "It is late in UTC.")
		observation = json.loads(self.llm.chat_requests[1]["body"]["messages"][-1]["content"])
		self.assertEqual(observation["timezone"], "UTC")
		self.assertEqual(observation["datetime"][:4], str(frappe.utils.now_datetime().year))
		[call] = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": result["agent_run_id"]},
			fields=["tool", "status", "is_mcp_tool", "mcp_server"],
		)
		self.assertEqual(
			(call.tool, call.status, call.is_mcp_tool, call.mcp_server),
			("get_current_time", "Completed", 1, self.time_server),
		)

	def test_a_command_not_in_the_allow_list_is_refused(self):
		with self.assertRaisesRegex(frappe.ValidationError, "allow-list"):
			frappe.get_doc(
				{
					"doctype": "MCP Server",
					"server_name": "stdio-refused",
					"transport_type": "stdio",
					"stdio_server": "rm-everything",
				}
			).insert()
		self.assertFalse(frappe.db.exists("MCP Server", "stdio-refused"))

		# a key dropped from the allow-list after the server was set up stops working at once
		set_site_config(CONFIG_KEY, {"time": ALLOW_LIST["time"]})
		self.addCleanup(set_site_config, CONFIG_KEY, ALLOW_LIST)
		with self.assertRaisesRegex(MCPClientError, "allow-list"):
			sync_mcp_server_tools(self.echo_server)

	def test_only_a_system_manager_sets_up_a_stdio_server(self):
		stdio = {
			"doctype": "MCP Server",
			"server_name": "stdio-refused",
			"transport_type": "stdio",
			"stdio_server": "time",
		}
		http = frappe.get_doc(
			{"doctype": "MCP Server", "server_name": "stdio-http", "server_url": "https://mcp.example.com"}
		).insert()
		frappe.db.commit()
		frappe.set_user(MANAGER)
		try:
			# refused even where DocPerms are bypassed: the check is the controller's own
			with self.assertRaisesRegex(frappe.PermissionError, "System Manager"):
				frappe.get_doc(stdio).insert(ignore_permissions=True)
			http.reload()
			http.update({"transport_type": "stdio", "stdio_server": "time"})
			with self.assertRaisesRegex(frappe.PermissionError, "System Manager"):
				http.save(ignore_permissions=True)
			echo = frappe.get_doc("MCP Server", self.echo_server)
			echo.stdio_server = "time"
			with self.assertRaisesRegex(frappe.PermissionError, "System Manager"):
				echo.save(ignore_permissions=True)
		finally:
			frappe.set_user("Administrator")
			frappe.db.rollback()
		self.assertFalse(frappe.db.exists("MCP Server", "stdio-refused"))
		self.assertEqual(frappe.db.get_value("MCP Server", "stdio-http", "transport_type"), "http")
		self.assertEqual(frappe.db.get_value("MCP Server", self.echo_server, "stdio_server"), "env-echo")

	def test_one_process_serves_the_runs_and_is_restarted_when_it_dies(self):
		agent = self.agent_with(self.echo_server, "Stdio Echo Agent")
		first = self.environment_of_a_run(agent)
		second = self.environment_of_a_run(agent)
		self.assertEqual(first["pid"], second["pid"])
		self.assertNotEqual(first["pid"], os.getpid())

		os.kill(first["pid"], signal.SIGKILL)
		third = self.environment_of_a_run(agent)
		self.assertNotEqual(third["pid"], first["pid"])

	def test_a_call_that_overstays_its_timeout_stops_the_process(self):
		slow = self.make_server("stdio-slow", "env-echo", timeout_seconds=2)
		before = json.loads(execute_mcp_tool(slow, "environment", {}))["pid"]
		started = time.monotonic()
		with self.assertRaisesRegex(MCPClientError, "no answer within 2 seconds"):
			execute_mcp_tool(slow, "sleep", {"seconds": 60})
		self.assertLess(time.monotonic() - started, 10)
		after = json.loads(execute_mcp_tool(slow, "environment", {}))["pid"]
		self.assertNotEqual(after, before)

	def test_the_child_gets_a_clean_environment_and_a_directory_of_its_own(self):
		agent = self.agent_with(self.echo_server, "Stdio Env Agent")
		reported = self.environment_of_a_run(agent)
		env = reported["env"]
		own_directory = os.path.realpath(frappe.get_site_path("private", "mcp-stdio", "env-echo"))
		self.assertEqual(os.path.realpath(reported["cwd"]), own_directory)
		self.assertEqual(os.path.realpath(env["HOME"]), own_directory)
		self.assertEqual(env["ECHO_TOKEN"], "allow-listed")
		self.assertNotIn(WORKER_SECRET, env)
		# only the minimal set: ours, the SDK's short list, and what Python itself sets (LC_CTYPE)
		allowed = {"PATH", "HOME", "LANG", "ECHO_TOKEN", "LOGNAME", "SHELL", "TERM", "USER", "LC_CTYPE"}
		self.assertLessEqual(set(env), allowed)
		secrets = [frappe.conf.get(key) for key in ("db_password", "encryption_key", "admin_password")]
		for secret in filter(None, secrets):
			self.assertNotIn(str(secret), json.dumps(env))
