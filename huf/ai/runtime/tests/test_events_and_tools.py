"""The event schema and the tool seam, without a model."""

import frappe

from huf.ai.runtime import events
from huf.ai.runtime.knowledge import mandatory_knowledge
from huf.ai.runtime.tools import Tool, ToolContext, Toolset, load_toolset, registered_tools
from huf.tests.support.case import HufTestCase

CONTEXT = ToolContext(agent="Any Agent", agent_run="run-1", conversation="conv-1", user="Administrator")


class TestEventSchema(HufTestCase):
	def test_every_event_constructor_matches_the_schema(self):
		usage = {
			"input_tokens": 1,
			"output_tokens": 2,
			"cached_tokens": 0,
			"cache_creation_tokens": 0,
			"total_tokens": 3,
		}
		for event in (
			events.run_status("Queued", "r1"),
			events.delta("Hel"),
			events.tool_call("c1", "get_weather", {"city": "Pune"}),
			events.tool_result("c1", "get_weather", "sunny", "Success"),
			events.complete("Hello", "r1", "conv", "chat:me", usage, 0.25),
			events.error("boom", "r1"),
			events.error("refused before a run existed", None),
		):
			events.validate_event(event)

	def test_malformed_events_are_rejected(self):
		bad = [
			{"type": "delta"},
			{"type": "delta", "content": "x", "extra": 1},
			{"type": "delta", "content": 5},
			{"type": "run_status", "status": "Done", "agent_run_id": "r1"},
			{"type": "tool_result", "tool_call_id": "c", "name": "n", "content": "x", "status": "Completed"},
			{"type": "tool_call", "tool_call_id": "c", "name": "n", "arguments": "{}"},
			{
				"type": "complete",
				"full_response": "",
				"agent_run_id": "r",
				"conversation_id": "c",
				"session_id": "s",
				"usage": {},
				"cost": 0,
			},
			{"type": "progress", "content": "x"},
			["delta"],
		]
		for event in bad:
			with self.assertRaises(ValueError, msg=event):
				events.validate_event(event)


class TestToolSeam(HufTestCase):
	def test_without_a_tools_registry_an_agent_has_no_tools(self):
		agent = frappe._dict(name="Any Agent")
		self.assertEqual(load_toolset(agent, CONTEXT).schemas(), [])
		outcome = load_toolset(agent, CONTEXT).execute("delete_everything", "{}", CONTEXT)
		self.assertEqual(outcome.status, "Failed")
		self.assertIn("Unknown tool delete_everything", outcome.content)
		self.assertIn("Available tools: none", outcome.content)

	def test_registered_tools_reach_only_their_agent(self):
		tool = Tool(
			"echo",
			"Echo the text",
			{"type": "object", "properties": {"text": {"type": "string"}}},
			lambda a, c: a["text"],
		)
		with registered_tools(tool, agent="Echo Agent"):
			toolset = load_toolset(frappe._dict(name="Echo Agent"), CONTEXT)
			self.assertEqual(load_toolset(frappe._dict(name="Other Agent"), CONTEXT).schemas(), [])
			self.assertEqual(
				toolset.schemas(),
				[
					{
						"type": "function",
						"function": {
							"name": "echo",
							"description": "Echo the text",
							"parameters": tool.parameters,
						},
					}
				],
			)
			self.assertEqual(toolset.execute("echo", '{"text": "hi"}', CONTEXT).content, "hi")
		self.assertEqual(load_toolset(frappe._dict(name="Echo Agent"), CONTEXT).schemas(), [])

	def test_bad_arguments_and_errors_become_failed_outcomes(self):
		def explode(args, context):
			raise ValueError("<b>disk full</b>")

		toolset = Toolset([Tool("explode", handler=explode), Tool("explode", handler=lambda a, c: "second")])
		self.assertEqual(len(toolset), 1)  # duplicate names are dropped
		invalid = toolset.execute("explode", "{not json", CONTEXT)
		self.assertEqual(invalid.status, "Failed")
		self.assertIn("not a valid JSON object", invalid.content)
		failed = toolset.execute("explode", {}, CONTEXT)
		self.assertEqual((failed.status, failed.content), ("Failed", "explode failed: disk full"))
		ok = Toolset([Tool("data", handler=lambda a, c: {"rows": [1, 2]})]).execute("data", None, CONTEXT)
		self.assertEqual((ok.status, ok.content, ok.raw), ("Success", '{"rows": [1, 2]}', {"rows": [1, 2]}))

	def test_no_mandatory_knowledge_until_the_knowledge_issue(self):
		found = mandatory_knowledge(frappe._dict(name="Any Agent"), "question")
		self.assertEqual((found.text, found.sources, found.chunks), ("", [], 0))
