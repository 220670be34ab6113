"""Huf as an MCP server over real HTTP: the official `mcp` SDK client (streamable HTTP transport and
`ClientSession`, through huf.ai.mcp.sdk, which picks the SDK's 1.x or 2.x names) against the site
served on 127.0.0.1, signed in with API keys; and the endpoint's plain JSON-RPC answers.

The agents answer from the scripted LLM server. Users: ADA (Huf User) runs agents, MAX (Huf Manager),
BOB (Huf User) alone may run the locked agent.
"""

from __future__ import annotations

import asyncio
import json

import frappe

from huf.ai.mcp import sdk
from huf.ai.mcp_server.agent_tools import tool_name
from huf.ai.mcp_server.tests.client import McpClientTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.factories import make_user
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.web import api_token

ADA = "mcp-server-ada@example.com"
MAX = "mcp-server-max@example.com"
BOB = "mcp-server-bob@example.com"
NOBODY = "mcp-server-nobody@example.com"  # a user without roles
OPEN = "MCP Server Open Agent"
LOCKED = "MCP Server Locked Agent"
APPROVAL = "MCP Server Approval Agent"
TOOL = "mcp_server_todo_create"
MARK = "mcp-server:"


class TestMcpServer(McpClientTestCase):
	users = ((ADA, ("Huf User",)), (MAX, ("Huf Manager",)), (BOB, ("Huf User",)), (NOBODY, ()))
	rpc_user = ADA

	def setUp(self):
		super().setUp()
		self.make_agent(OPEN, description="Answers questions about the garden.")
		self.make_agent(LOCKED, agent_user=[{"user": BOB}])
		self.make_tool(
			TOOL,
			"Create Document",
			reference_doctype="ToDo",
			parameters=[{"fieldname": "description", "required": 1}],
			requires_approval=1,
		)
		self.make_tool_agent(APPROVAL, TOOL)
		frappe.db.commit()

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"description": ("like", f"{MARK}%")})
		frappe.db.commit()

	# --- the SDK client -------------------------------------------------------------------------------

	def test_initialize_and_list_the_agents_the_caller_may_run(self):
		initialized, _none = self.with_session(ADA, lambda session: asyncio.sleep(0))
		self.assertEqual(initialized["serverInfo"]["name"], "huf")
		self.assertIn("tools", initialized["capabilities"])
		tools = self.tools_of(ADA)
		self.assertIn(tool_name(OPEN), tools)
		self.assertIn(tool_name(APPROVAL), tools)
		self.assertNotIn(tool_name(LOCKED), tools, "ADA may not run the locked agent")
		tool = tools[tool_name(OPEN)]
		self.assertEqual(tool_name(OPEN), "ask_mcp_server_open_agent")
		self.assertIn("garden", tool["description"])
		self.assertEqual(tool["inputSchema"]["required"], ["prompt"])
		self.assertIn("conversation_id", tool["inputSchema"]["properties"])
		self.assertIn(tool_name(LOCKED), self.tools_of(BOB))

	def test_call_an_agent_and_continue_its_conversation(self):
		self.llm.queue(Reply(content="Water them at dawn."), Reply(content="Twice a week."))
		first = self.call(ADA, tool_name(OPEN), {"prompt": "When do I water the roses?"})
		self.assertFalse(first.get("isError"), first)
		self.assertEqual(first["content"][0]["text"], "Water them at dawn.")
		ids = first["structuredContent"]
		self.assertEqual(ids["status"], "Success")
		conversation = ids["conversation_id"]
		self.assertIn(conversation, first["content"][1]["text"])
		run = frappe.db.get_value("Agent Run", ids["agent_run_id"], ["user", "agent", "status"], as_dict=True)
		self.assertEqual((run.user, run.agent, run.status), (ADA, OPEN, "Success"))
		self.assertEqual(frappe.db.get_value("Agent Conversation", conversation, "channel"), "mcp")

		second = self.call(ADA, tool_name(OPEN), {"prompt": "How often?", "conversation_id": conversation})
		self.assertFalse(second.get("isError"), second)
		self.assertEqual(second["content"][0]["text"], "Twice a week.")
		self.assertEqual(second["structuredContent"]["conversation_id"], conversation)
		sent = [m["content"] for m in self.llm.chat_requests[-1]["body"]["messages"] if m["role"] != "system"]
		self.assertIn("When do I water the roses?", json.dumps(sent), "the second run saw the first turn")

		# another Huf User cannot continue ADA's conversation: the run is refused, nothing runs
		foreign = self.call(BOB, tool_name(OPEN), {"prompt": "Hi", "conversation_id": conversation})
		self.assertTrue(foreign["isError"], foreign)
		self.assertEqual(frappe.db.count("Agent Run", {"conversation": conversation}), 2)

	def test_the_runs_per_minute_limit_applies(self):
		user = f"mcp-server-rate-{frappe.generate_hash(length=8)}@example.com"  # a window of its own
		make_user(user, "Huf User")
		self.tokens[user] = api_token(user)
		self.addCleanup(
			lambda: (frappe.delete_doc("User", user, force=True, ignore_permissions=True), frappe.db.commit())
		)
		set_site_config("huf_run_rate_limit", 1)
		self.addCleanup(set_site_config, "huf_run_rate_limit", None)
		self.llm.queue(Reply(content="First."))
		first = self.call(user, tool_name(OPEN), {"prompt": "One"})
		self.assertFalse(first.get("isError"), first)
		second = self.call(user, tool_name(OPEN), {"prompt": "Two"})
		self.assertTrue(second["isError"], second)
		self.assertIn("Too many agent runs", second["content"][0]["text"])
		self.assertEqual(frappe.db.count("Agent Run", {"user": user}), 1)

	def test_a_refused_agent_is_an_unknown_tool(self):
		async def work(session):
			try:
				result = await session.call_tool(tool_name(LOCKED), {"prompt": "Let me in"})
			except Exception as e:  # the SDK raises the JSON-RPC error
				return str(e)
			return sdk.wire(result)

		answer = self.with_session(ADA, work)[1]
		self.assertIn("Unknown tool", str(answer))
		self.assertEqual(frappe.db.count("Agent Run", {"agent": LOCKED}), 0)

	def test_a_tool_that_needs_approval_parks_the_call_and_says_so(self):
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(TOOL, {"description": f"{MARK} prune"})]),
			Reply(content="Done."),
		)
		result = self.call(ADA, tool_name(APPROVAL), {"prompt": "Remind me to prune"})
		self.assertFalse(result.get("isError"), result)
		structured = result["structuredContent"]
		self.assertEqual(structured["status"], "Waiting Approval")
		self.assertEqual(structured["tool_name"], TOOL)
		self.assertIn(structured["agent_run_id"], result["content"][0]["text"])
		self.assertIn(TOOL, result["content"][0]["text"])
		self.assertEqual(
			frappe.db.get_value("Agent Run", structured["agent_run_id"], "status"), "Waiting Approval"
		)
		self.assertEqual(
			frappe.db.get_value("Agent Tool Approval", structured["approval_id"], "run_user"), ADA
		)
		self.assertFalse(frappe.db.exists("ToDo", {"description": f"{MARK} prune"}), "ran before approval")

	def test_a_guest_gets_nothing(self):
		async def work(session):
			return sdk.wire(await session.list_tools())

		with self.assertRaises(BaseException):  # noqa: B017 - the SDK's error type differs between 1.x and 2.x
			self.with_session(None, work, timeout=10)
		for message in (
			{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
			{"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
		):
			response = self.rpc(message, user=None)
			self.assertEqual(response.status_code, 401, response.text)
			self.assertEqual(response.json()["error"]["code"], -32001)
			self.assertNotIn("tools", response.json())

	# --- plain JSON-RPC ----------------------------------------------------------------------------------

	def test_json_rpc_answers(self):
		init = self.rpc(
			{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}}
		)
		self.assertEqual(init.status_code, 200, init.text)
		self.assertEqual(init.json()["result"]["protocolVersion"], "2025-03-26")
		self.assertNotIn("mcp-session-id", init.headers)
		newest = self.rpc(
			{"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "1999"}}
		)
		self.assertEqual(newest.json()["result"]["protocolVersion"], "2025-11-25")

		notified = self.rpc({"jsonrpc": "2.0", "method": "notifications/initialized"})
		self.assertEqual((notified.status_code, notified.text), (202, ""))
		ping = self.rpc({"jsonrpc": "2.0", "id": "p", "method": "ping"})
		self.assertEqual(ping.json(), {"jsonrpc": "2.0", "id": "p", "result": {}})
		unknown = self.rpc({"jsonrpc": "2.0", "id": 3, "method": "resources/list"})
		self.assertEqual(unknown.json()["error"]["code"], -32601)
		no_prompt = self.rpc(
			{
				"jsonrpc": "2.0",
				"id": 4,
				"method": "tools/call",
				"params": {"name": tool_name(OPEN), "arguments": {}},
			}
		)
		self.assertEqual(no_prompt.json()["error"]["code"], -32602)
		self.assertEqual(frappe.db.count("Agent Run", {"agent": OPEN}), 0)

		# Frappe itself parses a JSON body (and fails on a broken one) before Huf sees it; another type reaches Huf
		broken = self.rpc("{not json", **{"Content-Type": "text/plain"})
		self.assertEqual((broken.status_code, broken.json()["error"]["code"]), (400, -32700))
		nothing = self.rpc({"jsonrpc": "2.0", "id": 7})
		self.assertEqual((nothing.status_code, nothing.json()["error"]["code"]), (400, -32600))
		batch = self.rpc([{"jsonrpc": "2.0", "id": 5, "method": "ping"}])
		self.assertEqual((batch.status_code, batch.json()["error"]["code"]), (400, -32600))
		old = self.rpc(
			{"jsonrpc": "2.0", "id": 6, "method": "ping"}, **{"MCP-Protocol-Version": "1999-01-01"}
		)
		self.assertEqual(old.status_code, 400)
		for method in ("GET", "DELETE"):
			response = self.rpc("", method=method)
			self.assertEqual(response.status_code, 405, f"{method}: {response.text}")

	def test_tools_list_per_role(self):
		for user in (ADA, MAX):
			response = self.rpc({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, user=user)
			names = [tool["name"] for tool in response.json()["result"]["tools"]]
			self.assertIn(tool_name(OPEN), names, user)
			self.assertEqual(tool_name(LOCKED) in names, user == MAX, user)  # managers read every agent
		nothing = self.rpc({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, user=NOBODY)
		self.assertEqual(nothing.json()["result"]["tools"], [])
		refused = self.rpc(
			{
				"jsonrpc": "2.0",
				"id": 2,
				"method": "tools/call",
				"params": {"name": tool_name(OPEN), "arguments": {"prompt": "Hi"}},
			},
			user=NOBODY,
		)
		self.assertEqual(refused.json()["error"]["code"], -32602)

	def test_prompts_of_the_library(self):
		slug = "mcp-server-greeting"
		frappe.db.delete("Agent Prompt", {"slug": slug})
		doc = frappe.get_doc(
			{
				"doctype": "Agent Prompt",
				"title": "MCP Server Greeting",
				"slug": slug,
				"description": "Greets.",
				"prompt_body": "Say hello to the gardener.",
				"visibility": "Public",
				"is_active": 1,
			}
		).insert(ignore_permissions=True)
		self.addCleanup(lambda: (frappe.db.delete("Agent Prompt", {"name": doc.name}), frappe.db.commit()))
		frappe.db.commit()

		async def work(session):
			listed = sdk.wire(await session.list_prompts())
			got = sdk.wire(await session.get_prompt(doc.slug))
			return listed, got

		listed, got = self.with_session(MAX, work)[1]
		self.assertIn(doc.slug, [p["name"] for p in listed["prompts"]])
		self.assertEqual(got["messages"][0]["content"]["text"], "Say hello to the gardener.")
		missing = self.rpc(
			{"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "no-such-prompt"}},
			user=MAX,
		)
		self.assertEqual(missing.json()["error"]["code"], -32602)
