"""Run Agent tools: sub-agent runs linked to their parent, loops and excessive depth refused."""

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.tools import ToolTestCase

USER = "tool-subagent-user@example.com"


def ask(tool: str, prompt: str) -> Reply:
	return Reply(content="", tool_calls=[tool_call(tool, {"prompt": prompt})])


class TestRunAgentTools(ToolTestCase):
	users = ((USER, ("Huf User",)),)

	def setUp(self):
		super().setUp()
		self.a = self.make_agent("Tool Chain A")
		self.b = self.make_agent("Tool Chain B")
		self.c = self.make_agent("Tool Chain C")
		for target in (self.a, self.b, self.c):
			self.make_tool(f"ask_{target[-1].lower()}", "Run Agent", tool_type="Agent", agent=target)
		self.link(self.a, "ask_b")
		self.link(self.b, "ask_a", "ask_c")
		self.link(self.c, "ask_a")

	def tearDown(self):
		frappe.conf.pop("huf_max_agent_depth", None)
		super().tearDown()

	def link(self, agent: str, *tools: str) -> None:
		doc = frappe.get_doc("Agent", agent)
		doc.set("agent_tool", [{"tool": tool} for tool in tools])
		doc.save(ignore_permissions=True)
		frappe.db.commit()

	def run_a(self) -> dict:
		frappe.set_user(USER)
		try:
			result = run_agent_sync(self.a, "start", now=1)
		finally:
			frappe.set_user("Administrator")
		frappe.db.rollback()
		self.assertTrue(result["success"], result)
		return result

	def tool_results(self, agent: str) -> list:
		runs = frappe.get_all("Agent Run", filters={"agent": agent}, pluck="name")
		return frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": ("in", runs or [""])},
			fields=["tool", "status", "tool_result", "agent_run"],
			order_by="creation asc",
		)

	def test_a_sub_agent_answers_its_parent(self):
		self.llm.queue(
			ask("ask_b", "What is 2+2?"), Reply(content="B says 4."), Reply(content="B told me 4.")
		)
		result = self.run_a()
		self.assertEqual(result["response"], "B told me 4.")
		child = frappe.get_all(
			"Agent Run",
			filters={"agent": self.b},
			fields=["name", "parent_run", "is_child", "user", "prompt", "status"],
		)
		self.assertEqual(len(child), 1)
		self.assertEqual(
			(child[0].parent_run, child[0].is_child, child[0].user, child[0].prompt, child[0].status),
			(result["agent_run_id"], 1, USER, "What is 2+2?", "Success"),
		)
		calls = self.tool_results(self.a)
		self.assertEqual((calls[0].tool, calls[0].status), ("ask_b", "Completed"))
		self.assertIn("B says 4.", calls[0].tool_result)

	def test_a_loop_back_to_a_running_agent_is_refused(self):
		self.llm.queue(
			ask("ask_b", "ask A back"),
			ask("ask_a", "hello again"),
			Reply(content="A is busy."),
			Reply(content="Done."),
		)
		self.run_a()
		self.assertEqual(frappe.db.count("Agent Run", {"agent": self.a}), 1)
		refused = self.tool_results(self.b)[0]
		self.assertEqual((refused.tool, refused.status), ("ask_a", "Failed"))
		self.assertIn(
			"Tool Chain A is already running in this chain (Tool Chain A → Tool Chain B → Tool Chain A)",
			json.loads(refused.tool_result),
		)

	def test_nesting_deeper_than_the_limit_is_refused(self):
		frappe.conf.huf_max_agent_depth = 1
		self.llm.queue(
			ask("ask_b", "go deeper"),
			ask("ask_c", "deeper still"),
			Reply(content="Too deep."),
			Reply(content="Done."),
		)
		self.run_a()
		self.assertEqual(frappe.db.count("Agent Run", {"agent": self.c}), 0)
		refused = self.tool_results(self.b)[0]
		self.assertEqual((refused.tool, refused.status), ("ask_c", "Failed"))
		self.assertIn(
			"sub-agent depth limit (1, huf_max_agent_depth) is reached", json.loads(refused.tool_result)
		)
