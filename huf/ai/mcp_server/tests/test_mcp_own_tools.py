"""An agent's own tools over Huf's MCP server, with the official `mcp` SDK client over real HTTP: offered
only where the agent's Offer Tools over MCP is ticked, to callers who may run the agent and hold
tools.use; a call is a tool run as the caller (recorded, no model), a tool that requires approval parks
it and the result says so; and who may tick the setting over REST (Guest, Huf User, Huf Manager).

Users: ADA (Huf User) may run the offering agent, BOB (Huf User) may not, NO_TOOLS may run it but lacks
tools.use, MAX (Huf Manager) approves.
"""

from __future__ import annotations

import json

import frappe

from huf.ai.agent_integration import get_agent_run_status
from huf.ai.mcp_server.agent_tools import tool_name as ask_name
from huf.ai.mcp_server.own_tools import tool_name
from huf.ai.mcp_server.tests.client import McpClientTestCase
from huf.api.approvals import decide_tool_approval
from huf.huf.capabilities import DEFAULT_HUF_ROLES
from huf.tests.support.factories import delete_huf_role, make_huf_role_user
from huf.tests.support.jobs import wait_until
from huf.tests.support.web import api_token

ADA = "mcp-own-ada@example.com"
BOB = "mcp-own-bob@example.com"
MAX = "mcp-own-max@example.com"
NO_TOOLS = "mcp-own-no-tools@example.com"
NO_TOOLS_ROLE = "MCP Own No Tools"
OFFERING = "MCP Own Offering Agent"
SILENT = "MCP Own Silent Agent"
PLAIN = "mcp_own_todo_add"
ASKING = "mcp_own_todo_create"  # requires approval
CLIENT = "mcp_own_client"  # answered by a chat's browser: never offered
MARK = "mcp-own:"
# allocated to the caller: Frappe lets a user without a ToDo role create only ToDos assigned to them
FIELDS = [{"fieldname": "description", "required": 1}, {"fieldname": "allocated_to"}]


class TestMcpOwnTools(McpClientTestCase):
	users = ((ADA, ("Huf User",)), (BOB, ("Huf User",)), (MAX, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		held = [c for c in DEFAULT_HUF_ROLES["Huf User"]["capabilities"] if c != "tools.use"]
		make_huf_role_user(NO_TOOLS, NO_TOOLS_ROLE, held, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(
			lambda: (
				delete_huf_role(NO_TOOLS_ROLE),
				frappe.delete_doc("User", NO_TOOLS, force=True, ignore_permissions=True),
				frappe.db.commit(),
			)
		)
		cls.tokens[NO_TOOLS] = api_token(NO_TOOLS)

	def setUp(self):
		super().setUp()
		self.make_tool(PLAIN, "Create Document", reference_doctype="ToDo", parameters=FIELDS)
		self.make_tool(
			ASKING, "Create Document", reference_doctype="ToDo", parameters=FIELDS, requires_approval=1
		)
		self.make_tool(CLIENT, "Client Side", tool_type="Client Side")
		allowed = [{"user": ADA}, {"user": NO_TOOLS}]
		self.make_tool_agent(OFFERING, PLAIN, ASKING, CLIENT, agent_user=allowed, mcp_expose_tools=1)
		self.make_tool_agent(SILENT, PLAIN)
		frappe.db.commit()

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("ToDo", {"description": ("like", f"{MARK}%")})
		frappe.db.commit()

	def todo(self, description: str):
		return frappe.db.get_value(
			"ToDo", {"description": f"{MARK} {description}"}, ["name", "owner"], as_dict=True
		)

	def own_tools_of(self, user: str) -> set[str]:
		return {name for name in self.tools_of(user) if "__" in name}

	def unknown(self, user: str | None, name: str) -> dict:
		"""The JSON-RPC answer to calling `name` as `user` (None: a guest)."""
		body = {
			"jsonrpc": "2.0",
			"id": 1,
			"method": "tools/call",
			"params": {"name": name, "arguments": {"description": f"{MARK} sneak"}},
		}
		return self.rpc(body, user=user)

	# --- listing -------------------------------------------------------------------------------------

	def test_listed_only_where_the_agent_offers_them(self):
		self.assertEqual(frappe.db.get_value("Agent", SILENT, "mcp_expose_tools"), 0, "off by default")
		tools = self.tools_of(ADA)
		self.assertEqual(tool_name(OFFERING, PLAIN), "mcp_own_offering_agent__mcp_own_todo_add")
		self.assertEqual(self.own_tools_of(ADA), {tool_name(OFFERING, PLAIN), tool_name(OFFERING, ASKING)})
		self.assertIn(ask_name(SILENT), tools, "the silent agent is still asked, its tools are not offered")
		plain = tools[tool_name(OFFERING, PLAIN)]
		self.assertEqual(plain["inputSchema"]["type"], "object")
		self.assertIn("description", plain["inputSchema"]["properties"])
		self.assertEqual(plain["inputSchema"].get("required"), ["description"])
		self.assertIn(OFFERING, plain["description"])
		self.assertIn("approver", tools[tool_name(OFFERING, ASKING)]["description"])
		self.assertNotIn("approver", plain["description"])

	# --- calling -------------------------------------------------------------------------------------

	def test_a_call_runs_the_tool_as_the_caller_and_is_recorded_as_a_run(self):
		result = self.call(
			ADA, tool_name(OFFERING, PLAIN), {"description": f"{MARK} sow", "allocated_to": ADA}
		)
		self.assertFalse(result.get("isError"), result)
		structured = result["structuredContent"]
		self.assertEqual((structured["status"], structured["tool"]), ("Success", PLAIN))
		todo = self.todo("sow")
		self.assertEqual(todo.owner, ADA)
		self.assertIn(todo.name, result["content"][0]["text"])
		run = frappe.db.get_value(
			"Agent Run",
			structured["agent_run_id"],
			["user", "agent", "run_kind", "status", "total_cost", "conversation"],
			as_dict=True,
		)
		self.assertEqual((run.user, run.agent, run.run_kind, run.status), (ADA, OFFERING, "tool", "Success"))
		self.assertEqual(float(run.total_cost or 0), 0.0)
		self.assertEqual(frappe.db.get_value("Agent Conversation", run.conversation, "channel"), "mcp")
		record = frappe.db.get_value(
			"Agent Tool Call",
			{"agent_run": structured["agent_run_id"]},
			["tool", "status", "tool_args"],
			as_dict=True,
		)
		self.assertEqual((record.tool, record.status), (PLAIN, "Completed"))
		self.assertEqual(json.loads(record.tool_args), {"description": f"{MARK} sow", "allocated_to": ADA})
		self.assertEqual(self.llm.chat_requests, [], "no model was asked")

		failing = self.call(ADA, tool_name(OFFERING, PLAIN), {})  # the required description is missing
		self.assertTrue(failing["isError"], failing)
		self.assertIn("description", failing["content"][0]["text"])

	def test_a_tool_approval_parks_the_call_and_says_so(self):
		result = self.call(
			ADA, tool_name(OFFERING, ASKING), {"description": f"{MARK} prune", "allocated_to": ADA}
		)
		self.assertFalse(result.get("isError"), result)
		structured = result["structuredContent"]
		run = structured["agent_run_id"]
		self.assertEqual((structured["status"], structured["tool_name"]), ("Waiting Approval", ASKING))
		text = result["content"][0]["text"]
		self.assertIn(run, text)
		self.assertIn(structured["approval_id"], text)
		self.assertIn("approver", text)
		self.assertEqual(
			frappe.db.get_value("Agent Tool Approval", structured["approval_id"], "run_user"), ADA
		)
		self.assertIsNone(self.todo("prune"), "ran before approval")

		frappe.set_user(MAX)
		try:
			decide_tool_approval(structured["approval_id"], "approve")
		finally:
			frappe.set_user("Administrator")
			frappe.db.commit()
		finished = wait_until(
			lambda: (s := frappe.db.get_value("Agent Run", run, "status")) not in ("Queued", "Started") and s,
			timeout=120,
			message=f"run {run} did not finish after the approval",
		)
		self.assertEqual(finished, "Success")
		self.assertEqual(self.todo("prune").owner, ADA, "the approved call ran as the caller")
		frappe.set_user(ADA)
		try:
			status = get_agent_run_status(run)
		finally:
			frappe.set_user("Administrator")
		self.assertEqual(status["status"], "Success")
		self.assertIn(self.todo("prune").name, status["response"])

	# --- who gets nothing ------------------------------------------------------------------------------

	def test_who_may_not_run_the_agent_or_use_tools_sees_and_calls_nothing(self):
		name = tool_name(OFFERING, PLAIN)
		self.assertEqual(self.own_tools_of(BOB), set(), "BOB may not run the agent")
		self.assertNotIn(ask_name(OFFERING), self.tools_of(BOB))
		self.assertIn(ask_name(OFFERING), self.tools_of(NO_TOOLS))
		self.assertEqual(self.own_tools_of(NO_TOOLS), set(), "no tools.use")
		for user in (BOB, NO_TOOLS):
			with self.subTest(user):
				answer = self.unknown(user, name).json()
				self.assertEqual(answer["error"]["code"], -32602, answer)
				self.assertIn("Unknown tool", answer["error"]["message"])
		for method in ("tools/list", "tools/call"):
			with self.subTest(guest=method):
				body = {
					"jsonrpc": "2.0",
					"id": 1,
					"method": method,
					"params": {"name": name, "arguments": {}},
				}
				response = self.rpc(body, user=None)
				self.assertEqual(response.status_code, 401, response.text)
				self.assertNotIn("result", response.json())
		frappe.db.commit()
		self.assertEqual(frappe.db.count("Agent Run", {"agent": OFFERING}), 0)
		self.assertIsNone(self.todo("sneak"))

	# --- the setting over REST -----------------------------------------------------------------------

	def test_only_who_may_write_the_agent_ticks_the_setting(self):
		import httpx

		path = f"/api/resource/Agent/{SILENT}"
		with httpx.Client(base_url=self.base_url, timeout=60) as client:
			for user, status in ((None, 403), (ADA, 403), (MAX, 200)):
				with self.subTest(user or "Guest"):
					headers = {"Authorization": self.tokens[user]} if user else {}
					response = client.put(path, json={"mcp_expose_tools": 1}, headers=headers)
					self.assertEqual(response.status_code, status, response.text)
					frappe.db.commit()
					self.assertEqual(
						frappe.db.get_value("Agent", SILENT, "mcp_expose_tools"), int(status == 200)
					)
		self.assertIn(tool_name(SILENT, PLAIN), self.own_tools_of(ADA), "offered once ticked")
