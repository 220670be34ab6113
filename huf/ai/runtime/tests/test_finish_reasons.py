"""The loop and the model's finish reason: an answer cut at the token limit is not asked again, and tool
calls run even when the finish reason says "stop"."""

from huf.ai.agent_integration import run_agent_sync
from huf.ai.runtime.tools import Tool, registered_tools
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase


class TestFinishReasons(RuntimeTestCase):
	def test_an_answer_cut_at_the_token_limit_is_not_asked_again(self):
		agent = self.make_agent("Length Finish Agent")
		self.llm.queue(Reply(content="Once upon a time, in a", finish_reason="length"))
		result = run_agent_sync(agent, "Tell me a long story.", now=1)
		self.assertEqual(len(self.llm.chat_requests), 1)
		self.assertEqual((result["success"], result["response"]), (True, "Once upon a time, in a"))

	def test_tool_calls_run_even_when_the_finish_reason_says_stop(self):
		agent = self.make_agent("Stop Finish Agent")
		calls = []
		weather = Tool(
			name="get_weather",
			description="Weather of a city",
			parameters={"type": "object", "properties": {"city": {"type": "string"}}},
			handler=lambda args, context: calls.append(args) or {"forecast": "sunny"},
		)
		self.llm.queue(
			Reply(tool_calls=[tool_call("get_weather", {"city": "Pune"}, "call_s")], finish_reason="stop"),
			Reply(content="Sunny in Pune."),
		)
		with registered_tools(weather, agent=agent):
			result = run_agent_sync(agent, "Weather in Pune?", now=1)
		self.assertEqual(calls, [{"city": "Pune"}])
		self.assertEqual(result["response"], "Sunny in Pune.")
		last = self.llm.chat_requests[1]["body"]["messages"][-1]
		self.assertEqual((last["role"], last["tool_call_id"]), ("tool", "call_s"))
