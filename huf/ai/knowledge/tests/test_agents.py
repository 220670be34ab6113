"""Knowledge in agent runs: Mandatory injection (budgets, priority, permissions), Optional tools, the Done-when."""

from __future__ import annotations

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.knowledge.chunkers import count_tokens
from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.huf.doctype.knowledge_source import knowledge_source as source_actions
from huf.tests.support import sample_files
from huf.tests.support.factories import make_user
from huf.tests.support.knowledge import KnowledgeTestCase, add_file, add_text, make_source, wait_indexed
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import make_runtime_agent

OUTSIDER = "knowledge-agent-outsider@example.com"


def system_prompt(llm) -> str:
	messages = llm.chat_requests[-1]["body"]["messages"]
	return next(m["content"] for m in messages if m["role"] == "system")


def knowledge_rows(*rows: tuple) -> list[dict]:
	return [
		{"knowledge_source": source, "mode": mode, "priority": priority, "token_budget": budget}
		for source, mode, priority, budget in rows
	]


class TestDoneWhen(KnowledgeTestCase):
	def test_pdf_and_text_to_an_agent_answer(self):
		source = make_source("handbook")
		add_file(
			source,
			"handbook.pdf",
			sample_files.make_pdf(["Welcome", "Returns are accepted within 30 days of delivery."]),
		)
		add_text(source, "Support is open Monday to Friday, 9 to 5.", title="Support hours")
		wait_indexed()
		self.assertEqual(frappe.db.get_value("Knowledge Source", source, "status"), "Ready")

		hits = source_actions.test_search(source, "When are returns accepted?")
		self.assertIn("Returns are accepted within 30 days", hits[0]["text"])

		agent = make_runtime_agent(
			"KT Handbook Agent", agent_knowledge=knowledge_rows((source, "Mandatory", 0, 0))
		)
		self.llm.queue("Within 30 days of delivery.")
		result = run_agent_sync(agent, "How many days do I have for returns?", now=1)
		self.assertTrue(result["success"], result)
		prompt = system_prompt(self.llm)
		self.assertTrue(prompt.startswith("You are a test agent."), prompt)
		self.assertIn("## Relevant Knowledge\n### KT handbook\n", prompt)
		self.assertIn("Returns are accepted within 30 days of delivery.", prompt)
		self.assertTrue(prompt.rstrip().endswith("---"), prompt)
		run = frappe.get_doc("Agent Run", result["agent_run_id"])
		self.assertEqual(json.loads(run.knowledge_sources_used), [source])
		self.assertGreaterEqual(run.chunks_injected, 1)


class TestMandatoryKnowledge(KnowledgeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.high = make_source("high priority")
		cls.low = make_source("low priority")
		cls.texts = {
			cls.high: ["Lighthouse alpha guards the north bay.", "Lighthouse bravo guards the east cape."],
			cls.low: ["Lighthouse charlie stands on the south rock."],
		}
		for source, texts in cls.texts.items():
			for text in texts:
				add_text(source, text, title="Lighthouses")
		wait_indexed()
		cls.tokens = {text: count_tokens(text) for texts in cls.texts.values() for text in texts}

	def run_with(self, rows, **agent_values) -> str:
		agent = make_runtime_agent("KT Budget Agent", agent_knowledge=rows, **agent_values)
		self.llm.queue("ok")
		result = run_agent_sync(agent, "Which lighthouse guards what?", now=1)
		self.assertTrue(result["success"], result)
		return system_prompt(self.llm)

	def test_priority_order_and_both_sources_when_the_budget_allows(self):
		prompt = self.run_with(knowledge_rows((self.low, "Mandatory", 1, 0), (self.high, "Mandatory", 5, 0)))
		self.assertLess(prompt.index("### KT high priority"), prompt.index("### KT low priority"))
		for text in self.tokens:
			self.assertIn(text, prompt)

	def test_the_agent_budget_stops_lower_priority_sources(self):
		high_tokens = sum(self.tokens[t] for t in self.texts[self.high])
		prompt = self.run_with(
			knowledge_rows((self.low, "Mandatory", 1, 0), (self.high, "Mandatory", 5, 0)),
			max_knowledge_tokens=high_tokens,
		)
		self.assertIn("### KT high priority", prompt)
		self.assertNotIn("### KT low priority", prompt)
		self.assertNotIn("charlie", prompt)

	def test_a_row_budget_limits_its_source(self):
		one = max(self.tokens[t] for t in self.texts[self.high])
		prompt = self.run_with(
			knowledge_rows((self.high, "Mandatory", 5, one), (self.low, "Mandatory", 1, 0))
		)
		injected = [t for t in self.texts[self.high] if t in prompt]
		self.assertEqual(len(injected), 1)
		self.assertIn("charlie", prompt)
		run = frappe.get_all(
			"Agent Run",
			filters={"agent": "KT Budget Agent"},
			fields=["chunks_injected"],
			order_by="creation desc",
			limit=1,
		)[0]
		self.assertEqual(run.chunks_injected, 2)

	def test_optional_sources_are_not_injected(self):
		prompt = self.run_with(knowledge_rows((self.high, "Optional", 5, 0)))
		self.assertNotIn("Relevant Knowledge", prompt)

	def test_a_user_who_may_not_read_the_source_gets_nothing_injected(self):
		from huf.ai.knowledge.context_builder import build_knowledge_context

		make_user(OUTSIDER, "Huf Viewer")
		frappe.db.commit()
		agent = frappe.get_doc(
			"Agent",
			make_runtime_agent(
				"KT Budget Agent", agent_knowledge=knowledge_rows((self.high, "Mandatory", 5, 0))
			),
		)
		self.assertEqual(build_knowledge_context(agent, "lighthouse").sources, [self.high])
		frappe.set_user(OUTSIDER)
		self.assertIsNone(build_knowledge_context(agent, "lighthouse"))


class TestOptionalTools(KnowledgeTestCase):
	def test_tools_are_limited_to_the_agents_sources(self):
		linked = make_source("linked facts")
		other = make_source("other facts")
		add_text(linked, "The secret ingredient is cardamom.", title="Recipe")
		add_text(other, "The other secret is saffron.", title="Other")
		wait_indexed()
		agent = make_runtime_agent(
			"KT Tool Agent", agent_knowledge=knowledge_rows((linked, "Optional", 0, 0))
		)
		self.llm.queue(
			Reply(tool_calls=[tool_call("get_knowledge_sources", {}, "c1")]),
			Reply(
				tool_calls=[
					tool_call("knowledge_search", {"query": "secret", "knowledge_source": other}, "c2")
				]
			),
			Reply(tool_calls=[tool_call("knowledge_search", {"query": "secret ingredient"}, "c3")]),
			"Cardamom.",
		)
		events = list(front_door.stream(RunRequest(agent, "What is the secret ingredient?")))
		tools = {tool["function"]["name"] for tool in self.llm.chat_requests[0]["body"]["tools"]}
		self.assertTrue({"knowledge_search", "get_knowledge_sources"} <= tools, tools)
		results = {e["tool_call_id"]: e for e in events if e["type"] == "tool_result"}
		self.assertEqual(results["c1"]["status"], "Success")
		self.assertEqual([s["name"] for s in json.loads(results["c1"]["content"])], [linked])
		self.assertEqual(results["c2"]["status"], "Failed")
		self.assertIn("not available to this agent", results["c2"]["content"])
		self.assertIn(f"Available sources: {linked}", results["c2"]["content"])
		self.assertNotIn("saffron", results["c2"]["content"])
		found = json.loads(results["c3"]["content"])
		self.assertEqual([r["source"] for r in found["results"]], [linked])
		self.assertIn("cardamom", found["results"][0]["text"])
		self.assertEqual(events[-1]["type"], "complete")

	def test_agents_without_optional_sources_get_no_knowledge_tools(self):
		source = make_source("mandatory only")
		agent = make_runtime_agent(
			"KT No Tools Agent", agent_knowledge=knowledge_rows((source, "Mandatory", 0, 0))
		)
		self.llm.queue("ok")
		run_agent_sync(agent, "hello", now=1)
		names = {tool["function"]["name"] for tool in self.llm.chat_requests[0]["body"].get("tools") or []}
		self.assertFalse(names & {"knowledge_search", "get_knowledge_sources"}, names)

	def test_the_built_in_function_path_finds_the_agent_from_the_tool_context(self):
		from huf.ai.knowledge import tool
		from huf.ai.runtime.tools import ToolContext

		linked = make_source("context facts")
		add_text(linked, "The meeting room is on floor three.", title="Rooms")
		wait_indexed()
		agent = make_runtime_agent(
			"KT Context Agent", agent_knowledge=knowledge_rows((linked, "Optional", 0, 0))
		)
		with self.assertRaisesRegex(frappe.ValidationError, "only be used by an agent"):
			tool.knowledge_search("meeting room")
		frappe.flags.huf_tool_context = ToolContext(agent=agent)
		try:
			found = tool.knowledge_search("meeting room")
			self.assertEqual(found["count"], 1)
			self.assertEqual([s["name"] for s in tool.get_knowledge_sources()], [linked])
			make_user(OUTSIDER, "Huf Viewer")
			frappe.set_user(OUTSIDER)  # runs as a user who may not read the source: nothing
			self.assertEqual(tool.knowledge_search("meeting room")["count"], 0)
			self.assertEqual(tool.get_knowledge_sources(), [])
		finally:
			frappe.flags.huf_tool_context = None
