"""An agent run calling MCP tools through the loop, with the scripted LLM server and real MCP servers."""

from __future__ import annotations

import json
import time
from threading import Thread

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.mcp_client import sync_mcp_server_tools
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.mcp_servers import demo_server, serve_streamable
from huf.tests.support.runs import RuntimeTestCase

AGENT = "MCP Run Agent"


def tool_calls_of(run: str) -> list[dict]:
	return frappe.get_all(
		"Agent Tool Call",
		filters={"agent_run": run},
		fields=["tool", "status", "is_mcp_tool", "mcp_server", "tool_result", "error_message"],
	)


class TestMCPToolsInAgentRun(RuntimeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.live = serve_streamable(demo_server("run-demo"))
		cls.addClassCleanup(cls.live.stop)
		cls.addClassCleanup(cls.delete_servers)
		cls.server = cls.make_server("run-demo", cls.live.url, tool_namespace="demo", timeout_seconds=3)

	@classmethod
	def make_server(cls, name: str, url: str, **values) -> str:
		if frappe.db.exists("MCP Server", name):
			frappe.delete_doc("MCP Server", name, force=True, ignore_permissions=True)
		frappe.get_doc({"doctype": "MCP Server", "server_name": name, "server_url": url, **values}).insert()
		sync_mcp_server_tools(name)
		frappe.db.commit()
		return name

	@classmethod
	def delete_servers(cls):
		for agent in frappe.get_all("Agent", filters={"agent_name": ("like", "MCP Run%")}, pluck="name"):
			frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
		for name in ("run-demo", "run-doomed"):
			if frappe.db.exists("MCP Server", name):
				frappe.delete_doc("MCP Server", name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def agent_with(self, server: str, name: str = AGENT) -> str:
		return self.make_agent(name, agent_mcp_server=[{"mcp_server": server, "enabled": 1}])

	def test_agent_calls_an_mcp_tool(self):
		agent = self.agent_with(self.server)
		self.llm.queue(
			tool_call_reply("demo_add", {"a": 2, "b": 40}),
			"The answer is 42.",
		)
		result = run_agent_sync(agent, "What is 2 + 40?", now=1)
		self.assertTrue(result["success"], result)
		self.assertEqual(result["response"], "The answer is 42.")

		sent = {t["function"]["name"]: t["function"] for t in self.llm.chat_requests[0]["body"]["tools"]}
		self.assertEqual(set(sent), {"demo_add", "demo_echo", "demo_fail", "demo_sleep"})
		self.assertEqual(sent["demo_add"]["description"], "[MCP:demo] Add two integers.")
		self.assertEqual(sent["demo_add"]["parameters"]["required"], ["a", "b"])
		self.assertEqual(self.llm.chat_requests[1]["body"]["messages"][-1]["content"], "42")

		[call] = tool_calls_of(result["agent_run_id"])
		self.assertEqual(
			(call.tool, call.status, call.is_mcp_tool, call.mcp_server),
			("demo_add", "Completed", 1, self.server),
		)
		self.assertEqual(json.loads(call.tool_result), "42")

	def test_tool_error_comes_back_as_an_observation(self):
		agent = self.agent_with(self.server)
		self.llm.queue(tool_call_reply("demo_fail", {"reason": "no paper"}), "Sorry, it failed.")
		result = run_agent_sync(agent, "Print it", now=1)
		self.assertTrue(result["success"], result)
		observation = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		self.assertIn("refused: no paper", observation)
		[call] = tool_calls_of(result["agent_run_id"])
		self.assertEqual((call.status, call.is_mcp_tool), ("Failed", 1))
		self.assertIn("refused: no paper", call.error_message)

	def test_hung_tool_times_out_and_the_run_goes_on(self):
		agent = self.agent_with(self.server)
		self.llm.queue(tool_call_reply("demo_sleep", {"seconds": 60}), "It took too long.")
		started = time.monotonic()
		result = run_agent_sync(agent, "Wait a minute", now=1)
		self.assertLess(time.monotonic() - started, 15)
		self.assertTrue(result["success"], result)
		observation = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		self.assertIn("no answer within 3 seconds", observation)

	def test_server_that_dies_mid_run(self):
		live = serve_streamable(demo_server("run-doomed"))
		self.addCleanup(live.stop)
		server = self.make_server("run-doomed", live.url, tool_namespace="doomed", timeout_seconds=3)
		agent = self.agent_with(server, "MCP Run Doomed Agent")
		# the second model reply comes after a second: by then the server is gone
		self.llm.queue(
			tool_call_reply("doomed_echo", {"text": "first"}),
			tool_call_reply("doomed_echo", {"text": "second"}, delay=1.0),
			"The server went away.",
		)

		def stop_server_after_first_call():
			while len(self.llm.chat_requests) < 2:
				time.sleep(0.01)
			live.stop()

		thread = Thread(target=stop_server_after_first_call, daemon=True)
		thread.start()
		started = time.monotonic()
		result = run_agent_sync(agent, "Echo twice", now=1)
		thread.join(10)
		self.assertLess(time.monotonic() - started, 20)
		self.assertTrue(result["success"], result)
		calls = sorted(tool_calls_of(result["agent_run_id"]), key=lambda c: c.status)
		self.assertEqual([c.status for c in calls], ["Completed", "Failed"])
		self.assertEqual(json.loads(calls[0].tool_result), "echo: first")
		self.assertTrue(
			calls[1].error_message.startswith(
				"doomed_echo failed: Could not call echo on MCP server run-doomed"
			)
		)
		self.assertIn("could not be reached", calls[1].error_message)
		self.assertEqual(result["response"], "The server went away.")


def tool_call_reply(name: str, args: dict, delay: float = 0.0) -> Reply:
	return Reply(content="", tool_calls=[tool_call(name, args)], delay=delay)
