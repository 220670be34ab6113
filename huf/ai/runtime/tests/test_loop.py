"""The agent loop (huf.ai.runtime.loop) with the real LiteLLM over HTTP: tools, turns, errors, costs, truncation."""

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.runtime import front_door
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.tools import Tool, registered_tools
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import MODEL, PROVIDER, RuntimeTestCase, make_runtime_model

NO_WAIT = {"Retry-After": "0"}


def weather_tool(calls: list) -> Tool:
	def handler(args, context):
		calls.append((args, context.agent_run, context.user))
		return {"city": args["city"], "forecast": "sunny", "celsius": 21}

	return Tool(
		name="get_weather",
		description="Weather of a city",
		parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
		handler=handler,
	)


def stored_messages(conversation: str) -> list:
	return frappe.get_all(
		"Agent Message",
		filters={"conversation": conversation},
		fields=[
			"role",
			"kind",
			"content",
			"tool_call_id",
			"tool_calls",
			"context_policy",
			"reference_name",
			"status",
		],
		order_by="conversation_index asc",
	)


class TestToolCalls(RuntimeTestCase):
	def test_one_tool_call_then_the_answer(self):
		agent = self.make_agent("Runtime Tool Agent")
		calls = []
		self.llm.queue(
			Reply(
				content="",
				tool_calls=[tool_call("get_weather", {"city": "Pune"}, "call_1")],
				prompt_tokens=50,
				completion_tokens=10,
			),
			Reply(content="It is sunny in Pune, 21 °C.", prompt_tokens=80, completion_tokens=12),
		)
		with registered_tools(weather_tool(calls), agent=agent):
			events = list(front_door.stream(RunRequest(agent, "Weather in Pune?")))
		for event in events:
			validate_event(event)
		kinds = [e["type"] for e in events if e["type"] != "delta"]
		self.assertEqual(
			kinds, ["run_status", "run_status", "tool_call", "tool_result", "run_status", "complete"]
		)
		call_event = next(e for e in events if e["type"] == "tool_call")
		self.assertEqual(
			call_event,
			{
				"type": "tool_call",
				"tool_call_id": "call_1",
				"name": "get_weather",
				"arguments": {"city": "Pune"},
			},
		)
		result_event = next(e for e in events if e["type"] == "tool_result")
		self.assertEqual(result_event["status"], "Success")
		self.assertEqual(json.loads(result_event["content"])["forecast"], "sunny")
		complete = events[-1]
		self.assertEqual(complete["full_response"], "It is sunny in Pune, 21 °C.")
		self.assertEqual(complete["usage"]["input_tokens"], 130)  # summed over both rounds
		self.assertEqual(complete["usage"]["output_tokens"], 22)

		run = complete["agent_run_id"]
		self.assertEqual(calls, [({"city": "Pune"}, run, "Administrator")])
		self.assertEqual(self.llm.chat_requests[0]["body"]["tools"][0]["function"]["name"], "get_weather")
		second = self.llm.chat_requests[1]["body"]["messages"]
		self.assertEqual(second[-2]["tool_calls"][0]["id"], "call_1")
		self.assertEqual((second[-1]["role"], second[-1]["tool_call_id"]), ("tool", "call_1"))

		record = frappe.get_all(
			"Agent Tool Call", filters={"agent_run": run}, fields=["tool", "status", "call_id", "tool_args"]
		)
		self.assertEqual(len(record), 1)
		self.assertEqual(
			(record[0].tool, record[0].status, record[0].call_id), ("get_weather", "Completed", "call_1")
		)
		stored = stored_messages(complete["conversation_id"])
		self.assertEqual(
			[(m.role, m.kind) for m in stored],
			[("user", "Message"), ("agent", "Tool Call"), ("tool", "Tool Result"), ("agent", "Message")],
		)
		self.assertEqual(stored[2].tool_call_id, "call_1")
		self.assertEqual(frappe.db.get_value("Agent Run", run, "total_tokens"), 152)

	def test_two_parallel_tool_calls_in_one_answer(self):
		agent = self.make_agent("Runtime Tool Agent")
		calls = []
		self.llm.queue(
			Reply(
				content=None,
				tool_calls=[
					tool_call("get_weather", {"city": "Paris"}, "call_a"),
					tool_call("get_weather", {"city": "Oslo"}, "call_b"),
				],
			),
			Reply(content="Paris and Oslo are sunny."),
		)
		with registered_tools(weather_tool(calls), agent=agent):
			result = run_agent_sync(agent, "Weather in Paris and Oslo?", now=1)
		self.assertTrue(result["success"])
		self.assertEqual([args["city"] for args, _run, _user in calls], ["Paris", "Oslo"])
		second = self.llm.chat_requests[1]["body"]["messages"]
		self.assertEqual([c["id"] for c in second[-3]["tool_calls"]], ["call_a", "call_b"])
		self.assertEqual(
			[(m["role"], m["tool_call_id"]) for m in second[-2:]], [("tool", "call_a"), ("tool", "call_b")]
		)
		self.assertEqual(len(self.llm.chat_requests), 2)

	def test_unknown_and_failing_tools_come_back_as_observations(self):
		agent = self.make_agent("Runtime Tool Agent")

		def forbidden(args, context):
			frappe.get_doc({"doctype": "ToDo", "description": "written before the denial"}).insert()
			raise frappe.PermissionError("No permission for ToDo")

		self.llm.queue(
			Reply(
				tool_calls=[tool_call("launch_rockets", {}, "call_x"), tool_call("delete_all", {}, "call_y")]
			),
			Reply(content="I could not do that."),
		)
		todos = frappe.db.count("ToDo")
		with registered_tools(Tool("delete_all", "Deletes things", handler=forbidden), agent=agent):
			events = list(front_door.stream(RunRequest(agent, "Do dangerous things")))
		results = [e for e in events if e["type"] == "tool_result"]
		self.assertEqual([r["status"] for r in results], ["Failed", "Failed"])
		self.assertIn("Unknown tool launch_rockets", results[0]["content"])
		self.assertIn("delete_all", results[0]["content"])  # the model learns which tools exist
		self.assertIn("Permission denied in delete_all", results[1]["content"])
		self.assertEqual(frappe.db.count("ToDo"), todos)  # the failing tool's write was rolled back
		self.assertEqual(events[-1]["type"], "complete")
		statuses = frappe.get_all(
			"Agent Tool Call", filters={"agent_run": events[-1]["agent_run_id"]}, pluck="status"
		)
		self.assertEqual(statuses, ["Failed", "Failed"])

	def test_invalid_json_arguments_are_reported_to_the_model(self):
		agent = self.make_agent("Runtime Tool Agent")
		calls = []
		self.llm.queue(
			Reply(tool_calls=[tool_call("get_weather", '{"city": "Pune"', "call_bad")]),
			Reply(content="Sorry."),
		)
		with registered_tools(weather_tool(calls), agent=agent):
			events = list(front_door.stream(RunRequest(agent, "Weather?")))
		self.assertEqual(calls, [])
		call_event = next(e for e in events if e["type"] == "tool_call")
		self.assertEqual(call_event["arguments"], {})
		result = next(e for e in events if e["type"] == "tool_result")
		self.assertEqual(result["status"], "Failed")
		self.assertIn("not a valid JSON object", result["content"])
		self.assertEqual(events[-1]["type"], "complete")

	def test_no_tools_until_the_tools_issue_registers_them(self):
		agent = self.make_agent("Runtime Tool Agent")
		self.llm.queue("plain")
		run_agent_sync(agent, "hi", now=1)
		self.assertNotIn("tools", self.llm.chat_requests[-1]["body"])

	def test_max_turns_reached(self):
		agent = self.make_agent("Runtime Looping Agent", max_turns=2)
		calls = []
		self.llm.queue(
			Reply(tool_calls=[tool_call("get_weather", {"city": "Rome"}, "call_1")]),
			Reply(tool_calls=[tool_call("get_weather", {"city": "Rome"}, "call_2")]),
		)
		with registered_tools(weather_tool(calls), agent=agent):
			result = run_agent_sync(agent, "Loop forever", now=1)
		self.assertFalse(result["success"])
		self.assertIn("limit of 2 turns", result["error"])
		self.assertEqual(len(calls), 1)  # the call of the last turn is not executed
		self.assertEqual(len(self.llm.chat_requests), 2)
		self.assertEqual(self.llm.chat_requests[-1]["body"].get("tool_choice"), "none")
		run = frappe.db.get_value(
			"Agent Run", result["agent_run_id"], ["status", "error_message"], as_dict=True
		)
		self.assertEqual(run.status, "Failed")
		self.assertIn("Max Turns", run.error_message)

	def test_long_tool_results_are_truncated_and_kept_as_an_artifact(self):
		agent = self.make_agent("Runtime Big Result Agent", max_context_chars=100)
		big = "x" * 450
		self.llm.queue(
			Reply(tool_calls=[tool_call("big_report", {}, "call_big")]), Reply(content="Summarised.")
		)
		with registered_tools(
			Tool("big_report", "A long report", handler=lambda args, ctx: big), agent=agent
		):
			result = run_agent_sync(agent, "Report please", now=1)
		self.assertTrue(result["success"])
		sent = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		self.assertTrue(sent.startswith("x" * 100) and "x" * 101 not in sent)
		self.assertIn("showing 100 of 450 characters", sent)
		message = next(m for m in stored_messages(result["conversation_id"]) if m.kind == "Tool Result")
		self.assertEqual(message.context_policy, "include_reference")
		artifact = frappe.get_doc("Agent Context Artifact", message.reference_name)
		self.assertEqual((artifact.payload_json, artifact.agent_run), (big, result["agent_run_id"]))
		self.assertIn(artifact.name, sent)
		# a later run sees only the reference to the artifact
		self.llm.queue("ok")
		run_agent_sync(agent, "next", conversation_id=result["conversation_id"], now=1)
		replayed = [m for m in self.llm.chat_requests[-1]["body"]["messages"] if m["role"] == "tool"][0][
			"content"
		]
		self.assertIn(f"full content in Agent Context Artifact {artifact.name}", replayed)


class TestProviderErrors(RuntimeTestCase):
	def test_429_then_success_is_retried(self):
		agent = self.make_agent("Runtime Retry Agent")
		self.llm.queue(Reply(status=429, error="slow down", headers=NO_WAIT), Reply(content="Made it."))
		result = run_agent_sync(agent, "hi", now=1)
		self.assertEqual((result["success"], result["response"]), (True, "Made it."))
		self.assertEqual(len(self.llm.chat_requests), 2)

	def test_persisting_500_fails_the_run_with_a_readable_message(self):
		agent = self.make_agent("Runtime Broken Agent")
		self.llm.queue(*[Reply(status=500, error="upstream exploded", headers=NO_WAIT)] * 3)
		result = run_agent_sync(agent, "hi", now=1)
		self.assertFalse(result["success"])
		self.assertIsNone(result["response"])
		run = frappe.db.get_value(
			"Agent Run", result["agent_run_id"], ["status", "error_message", "response"], as_dict=True
		)
		self.assertEqual(run.status, "Failed")
		self.assertIn("HTTP 500", run.error_message)
		self.assertIn("upstream exploded", run.error_message)
		self.assertFalse(run.response)
		self.assertEqual(result["error"], run.error_message)
		stored = stored_messages(result["conversation_id"])
		self.assertEqual([(m.role, m.kind) for m in stored], [("user", "Message"), ("agent", "Error")])
		self.assertEqual(stored[-1].content, run.error_message)
		# the error is not replayed to the model as an answer in the next run
		self.llm.queue("recovered")
		run_agent_sync(agent, "again", conversation_id=result["conversation_id"], now=1)
		replay = self.llm.chat_requests[-1]["body"]["messages"]
		self.assertNotIn("upstream exploded", json.dumps(replay))

	def test_streamed_failure_ends_with_an_error_event(self):
		agent = self.make_agent("Runtime Broken Agent")
		self.llm.queue(*[Reply(status=503, error="overloaded", headers=NO_WAIT)] * 3)
		events = list(front_door.stream(RunRequest(agent, "hi")))
		for event in events:
			validate_event(event)
		self.assertEqual([e["type"] for e in events][-2:], ["run_status", "error"])
		self.assertEqual(events[-2]["status"], "Failed")
		self.assertIn("HTTP 503", events[-1]["content"])

	def test_context_window_exceeded_is_trimmed_once_then_fails_clearly(self):
		agent = self.make_agent("Runtime Long Agent")
		too_long = Reply(
			status=400,
			error="This model's maximum context length is 60 tokens. Please reduce the length of the messages.",
		)
		self.llm.queue(too_long, Reply(content="Fits now."))
		self.assertTrue(run_agent_sync(agent, "word " * 200, now=1)["success"])
		trimmed = self.llm.chat_requests[1]["body"]["messages"]
		self.assertLess(
			len(json.dumps(trimmed)), len(json.dumps(self.llm.chat_requests[0]["body"]["messages"]))
		)

		self.llm.reset()
		self.llm.queue(too_long, too_long)
		result = run_agent_sync(agent, "word " * 200, now=1)
		self.assertFalse(result["success"])
		self.assertIn("too long", result["error"])


class TestCosts(RuntimeTestCase):
	def test_custom_prices_with_cached_tokens_summed_over_rounds(self):
		agent = self.make_agent("Runtime Cost Agent")
		make_runtime_model(
			MODEL,
			use_custom_pricing=1,
			input_cost_per_1m_tokens=3.0,
			output_cost_per_1m_tokens=15.0,
			cached_input_cost_per_1m_tokens=0.3,
		)
		try:
			self.llm.queue(
				Reply(
					tool_calls=[tool_call("get_weather", {"city": "Lyon"}, "c1")],
					prompt_tokens=2000,
					completion_tokens=100,
					cached_tokens=1500,
				),
				Reply(content="Sunny.", prompt_tokens=2200, completion_tokens=50, cached_tokens=2000),
			)
			with registered_tools(weather_tool([]), agent=agent):
				result = run_agent_sync(agent, "Lyon?", now=1)
			expected = (500 * 3.0 + 1500 * 0.3 + 100 * 15.0 + 200 * 3.0 + 2000 * 0.3 + 50 * 15.0) / 1e6
			self.assertAlmostEqual(result["cost"], expected, places=10)
			self.assertEqual(result["usage"]["cached_tokens"], 3500)
			run = frappe.db.get_value(
				"Agent Run",
				result["agent_run_id"],
				["total_cost", "cached_tokens", "input_tokens"],
				as_dict=True,
			)
			self.assertAlmostEqual(run.total_cost, expected, places=10)
			self.assertEqual((run.cached_tokens, run.input_tokens), (3500, 4200))
			self.assertAlmostEqual(
				frappe.db.get_value("Agent Conversation", result["conversation_id"], "total_cost"),
				expected,
				places=10,
			)
		finally:
			make_runtime_model(
				MODEL,
				use_custom_pricing=0,
				input_cost_per_1m_tokens=0,
				output_cost_per_1m_tokens=0,
				cached_input_cost_per_1m_tokens=0,
			)

	def test_a_changed_price_applies_to_the_next_run(self):
		agent = self.make_agent("Runtime Cost Agent")
		self.addCleanup(make_runtime_model, MODEL, use_custom_pricing=0, input_cost_per_1m_tokens=0)
		costs = []
		for price in (2.0, 5.0):
			make_runtime_model(MODEL, use_custom_pricing=1, input_cost_per_1m_tokens=price)
			self.llm.queue(Reply(content="ok", prompt_tokens=1_000_000, completion_tokens=0))
			costs.append(run_agent_sync(agent, "price?", now=1)["cost"])
		self.assertEqual(costs, [2.0, 5.0])

	def test_litellm_price_table_when_no_custom_price(self):
		model = make_runtime_model("openai/gpt-4o-mini", PROVIDER)
		agent = self.make_agent("Runtime Priced Agent", model=model)
		self.llm.queue(Reply(content="cheap", prompt_tokens=10_000, completion_tokens=2_000))
		result = run_agent_sync(agent, "hi", now=1)
		import litellm  # loaded by the run (with its bundled price map): the reference prices

		prompt_cost, completion_cost = litellm.cost_per_token(
			model="openai/gpt-4o-mini", prompt_tokens=10_000, completion_tokens=2_000
		)
		self.assertGreater(result["cost"], 0)
		self.assertAlmostEqual(result["cost"], prompt_cost + completion_cost, places=10)

	def test_unknown_model_costs_nothing(self):
		agent = self.make_agent("Runtime Free Agent")
		self.llm.queue("free")
		self.assertEqual(run_agent_sync(agent, "hi", now=1)["cost"], 0.0)
