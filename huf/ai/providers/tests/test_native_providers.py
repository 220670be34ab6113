"""Every provider family through its own wire format, as a user configures it (docs/providers.md).

Each class is one family: an AI Provider with that Provider Type, its key, address and route settings
(Azure's api_version, AWS and Vertex credentials), an AI Model and an agent, against a scripted server
speaking the provider's native API (huf/tests/support/llm_dialects). Each runs a simple answer, a tool
call (the tool result must go back in the provider's own shape) and a stream, through Huf's runtime and
the real LiteLLM; the cost recorded is LiteLLM's own price for the model, where its price map knows it.
"""

from __future__ import annotations

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.providers.litellm import get_litellm
from huf.ai.providers.model_names import normalize_model_name
from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.tests.test_loop import weather_tool
from huf.ai.runtime.tools import registered_tools
from huf.tests.support.case import HufTestCase
from huf.tests.support.llm_dialects import vertex
from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call
from huf.tests.support.runs import cleanup_runtime_records, delete_runs_of, make_runtime_agent

KEY = "native-provider-key-4d2a"
AWS_KEY_ID = "AKIDNATIVE4D2A"


def openai_tool_result(body: dict) -> str:
	message = body["messages"][-1]
	assert message["role"] == "tool", message
	return message["content"]


def anthropic_tool_result(body: dict) -> str:
	[block] = [b for b in body["messages"][-1]["content"] if b["type"] == "tool_result"]
	content = block["content"]
	return content if isinstance(content, str) else json.dumps(content)


def gemini_tool_result(body: dict) -> str:
	parts = body["contents"][-1]["parts"]
	[part] = [p for p in parts if "function_response" in p or "functionResponse" in p]
	return json.dumps(part)


def bedrock_tool_result(body: dict) -> str:
	[block] = [b for b in body["messages"][-1]["content"] if "toolResult" in b]
	return json.dumps(block["toolResult"])


class NativeProvider:
	"""The tests of one provider family, mixed into a HufTestCase per family below. Records are committed
	(the runtime commits) and removed after the class."""

	PROVIDER_TYPE = ""
	DIALECT = "openai"
	MODEL = ""
	SENT_MODEL = None  # the model name the provider must receive, when the request body carries it
	tool_result = staticmethod(openai_tool_result)

	@classmethod
	def provider_values(cls, llm: ScriptedLLM) -> dict:
		return {"api_key": KEY, "api_base": llm.api_base}

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM(cls.DIALECT))
		cls.provider = f"Native {cls.PROVIDER_TYPE}"
		frappe.db.rollback()
		if frappe.db.exists("AI Provider", cls.provider):  # left by an interrupted run
			cleanup_runtime_records(cls.provider)
		cls.addClassCleanup(cleanup_runtime_records, cls.provider)
		frappe.get_doc(
			{
				"doctype": "AI Provider",
				"provider_name": cls.provider,
				"provider_type": cls.PROVIDER_TYPE,
				**cls.provider_values(cls.llm),
			}
		).insert(ignore_permissions=True)
		frappe.get_doc({"doctype": "AI Model", "model_name": cls.MODEL, "provider": cls.provider}).insert(
			ignore_permissions=True
		)
		cls.agent = make_runtime_agent(
			f"Native {cls.PROVIDER_TYPE} Agent", provider=cls.provider, model=cls.MODEL
		)
		frappe.db.commit()

	def setUp(self):
		self.llm.reset()
		frappe.db.rollback()

	def tearDown(self):
		frappe.db.rollback()
		delete_runs_of([self.agent])
		frappe.db.commit()

	def expected_cost(self, input_tokens: int, output_tokens: int) -> float:
		"""LiteLLM's price for the model with these tokens; 0 where its price map does not know it."""
		name = normalize_model_name(self.MODEL, self.PROVIDER_TYPE)
		try:
			prices = get_litellm().cost_per_token(
				model=name, prompt_tokens=input_tokens, completion_tokens=output_tokens
			)
		except Exception:
			return 0.0
		return float(sum(prices))

	def test_a_simple_run(self):
		self.llm.queue(Reply(content="Hello from the provider.", prompt_tokens=1000, completion_tokens=100))
		result = run_agent_sync(self.agent, "Say hello", now=1)
		self.assertTrue(result["success"], result)
		self.assertEqual(result["response"], "Hello from the provider.")
		[request] = self.llm.chat_requests
		if self.SENT_MODEL:
			self.assertEqual(request["body"]["model"], self.SENT_MODEL)
		run = frappe.db.get_value(
			"Agent Run", result["agent_run_id"], ["input_tokens", "output_tokens", "total_cost"], as_dict=True
		)
		self.assertEqual((run.input_tokens, run.output_tokens), (1000, 100))
		expected = self.expected_cost(1000, 100)
		if expected:  # LiteLLM prices some hosts by model size on responses: within a few per cent
			self.assertAlmostEqual(run.total_cost, expected, delta=expected * 0.05)
		else:
			self.assertEqual(run.total_cost, 0)

	def test_a_tool_call_goes_out_and_its_result_comes_back_natively(self):
		calls = []
		self.llm.queue(
			Reply(tool_calls=[tool_call("get_weather", {"city": "Pune"}, "call_native_1")]),
			Reply(content="Sunny in Pune."),
		)
		with registered_tools(weather_tool(calls), agent=self.agent):
			result = run_agent_sync(self.agent, "Weather in Pune?", now=1)
		self.assertTrue(result["success"], result)
		self.assertEqual(result["response"], "Sunny in Pune.")
		self.assertEqual([args for args, _run, _user in calls], [{"city": "Pune"}])
		first, second = self.llm.chat_requests
		self.assertIn("get_weather", json.dumps(first["body"]))
		self.assertIn("sunny", self.tool_result(second["body"]))

	def test_a_stream(self):
		self.llm.queue(Reply(content="Streamed from the provider.", chunk_size=6))
		events = list(front_door.stream(RunRequest(self.agent, "Stream please")))
		deltas = "".join(e["content"] for e in events if e["type"] == "delta")
		self.assertEqual(deltas, "Streamed from the provider.")
		self.assertEqual(events[-1]["type"], "complete", events[-1])
		self.assertGreater(len([e for e in events if e["type"] == "delta"]), 1)  # it arrived in pieces

	def test_a_tool_call_in_a_stream(self):
		calls = []
		self.llm.queue(
			Reply(
				content="Let me look.",
				tool_calls=[tool_call("get_weather", {"city": "Oslo"}, "call_native_2")],
			),
			Reply(content="Snowing in Oslo.", chunk_size=5),
		)
		with registered_tools(weather_tool(calls), agent=self.agent):
			events = list(front_door.stream(RunRequest(self.agent, "Weather in Oslo?")))
		self.assertEqual(events[-1]["type"], "complete", events[-1])
		self.assertEqual(events[-1]["full_response"], "Snowing in Oslo.")
		[call] = [e for e in events if e["type"] == "tool_call"]
		self.assertEqual((call["name"], call["arguments"]), ("get_weather", {"city": "Oslo"}))
		self.assertEqual([args for args, _run, _user in calls], [{"city": "Oslo"}])
		self.assertIn("sunny", self.tool_result(self.llm.chat_requests[1]["body"]))


class TestOpenAI(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "OpenAI", "gpt-4o-mini", "gpt-4o-mini"


class TestAnthropic(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL = "Anthropic", "anthropic", "claude-sonnet-4-20250514"
	SENT_MODEL = "claude-sonnet-4-20250514"
	tool_result = staticmethod(anthropic_tool_result)


class TestGoogleGemini(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL = "Google Gemini", "gemini", "gemini-2.5-flash"
	tool_result = staticmethod(gemini_tool_result)


class TestVertexAI(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL = "Vertex AI", "vertex", vertex.MODEL
	tool_result = staticmethod(gemini_tool_result)

	@classmethod
	def provider_values(cls, llm):
		return {
			"api_base": llm.api_base,
			"vertex_project": vertex.PROJECT,
			"vertex_location": vertex.LOCATION,
			"vertex_credentials": vertex.service_account_json(llm.root),
		}

	def test_a_simple_run(self):
		super().test_a_simple_run()
		[request] = self.llm.chat_requests
		self.assertEqual(request["headers"]["authorization"], f"Bearer {vertex.ACCESS_TOKEN}")


class TestAzureOpenAI(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL = "Azure OpenAI", "azure", "gpt-4o"

	@classmethod
	def provider_values(cls, llm):
		return {"api_key": KEY, "api_base": llm.api_base, "api_version": "2024-10-21"}

	def test_a_simple_run(self):
		super().test_a_simple_run()
		[request] = self.llm.chat_requests
		self.assertIn("/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21", request["path"])
		self.assertEqual(request["headers"]["api-key"], KEY)


class TestAWSBedrock(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL = "AWS Bedrock", "bedrock", "anthropic.claude-3-5-sonnet-20240620-v1:0"
	tool_result = staticmethod(bedrock_tool_result)

	@classmethod
	def provider_values(cls, llm):
		return {
			"api_base": llm.api_base,
			"aws_access_key_id": AWS_KEY_ID,
			"aws_secret_access_key": "native-aws-secret",
			"aws_region_name": "eu-west-3",
		}

	def test_a_simple_run(self):
		super().test_a_simple_run()
		[request] = self.llm.chat_requests
		self.assertIn(f"Credential={AWS_KEY_ID}/", request["headers"]["authorization"])
		self.assertIn("/eu-west-3/bedrock/aws4_request", request["headers"]["authorization"])
		self.assertNotIn("native-aws-secret", json.dumps(request))


class TestOllama(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL, SENT_MODEL = "Ollama", "ollama", "llama3.1", "llama3.1"

	@classmethod
	def provider_values(cls, llm):
		return {"api_base": llm.api_base}  # no key: a local server

	def test_a_simple_run(self):
		super().test_a_simple_run()
		[request] = self.llm.chat_requests
		self.assertTrue(request["path"].endswith("/api/chat"))  # the chat API with native tools


class TestCohere(NativeProvider, HufTestCase):
	PROVIDER_TYPE, DIALECT, MODEL, SENT_MODEL = "Cohere", "cohere", "command-r-08-2024", "command-r-08-2024"


# Hosts speaking OpenAI's format: what matters is the route, and the model id the host receives.


class TestGroq(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "Groq", "openai/gpt-oss-20b", "openai/gpt-oss-20b"


class TestTogetherAI(NativeProvider, HufTestCase):
	PROVIDER_TYPE = "Together AI"
	MODEL = SENT_MODEL = "meta-llama/Llama-3.3-70B-Instruct-Turbo"


class TestFireworksAI(NativeProvider, HufTestCase):
	PROVIDER_TYPE = "Fireworks AI"
	MODEL = SENT_MODEL = (
		"accounts/fireworks/models/llama-v3p1-405b-instruct"  # tools: LiteLLM drops them for models it does not know to call functions
	)


class TestDeepSeek(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "DeepSeek", "deepseek-chat", "deepseek-chat"


class TestMistral(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "Mistral", "mistral-small-latest", "mistral-small-latest"


class TestXAI(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "xAI", "grok-3-mini-beta", "grok-3-mini-beta"


class TestOpenRouter(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "OpenRouter", "google/gemini-2.5-flash", "google/gemini-2.5-flash"


class TestLMStudio(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = "LM Studio", "qwen2.5-7b-instruct", "qwen2.5-7b-instruct"

	@classmethod
	def provider_values(cls, llm):
		return {"api_base": llm.api_base}


class TestOpenAICompatible(NativeProvider, HufTestCase):
	PROVIDER_TYPE, MODEL, SENT_MODEL = (
		"OpenAI-compatible",
		"Qwen/Qwen2.5-7B-Instruct",
		"Qwen/Qwen2.5-7B-Instruct",
	)

	@classmethod
	def provider_values(cls, llm):
		return {"api_base": llm.api_base}
