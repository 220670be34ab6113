"""The LiteLLM seam against a scripted OpenAI-compatible server on 127.0.0.1, with the real LiteLLM."""

import logging
import os
import socket
import time
from contextlib import contextmanager
from unittest.mock import patch

import frappe

from huf.ai.providers import ContextWindowError, ProviderError, ProviderNotConfiguredError
from huf.ai.providers.litellm import (
	ProviderConfig,
	_credentials,
	apply_prompt_caching,
	completion,
	embedding,
	get_provider_config,
)
from huf.ai.providers.retry import RetryPolicy
from huf.tests.support.case import HufTestCase, HufUnitTestCase
from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

KEY = "sk-test-7f3a9c1e5b2d4f60"
AWS_SECRET = "aws-secret-routes-9f2c"
FAST = RetryPolicy(attempts=3, base_delay=0.01, max_delay=0.05)
HELLO = [{"role": "user", "content": "Hello"}]
WEATHER_TOOL = {
	"type": "function",
	"function": {
		"name": "get_weather",
		"description": "Weather of a city",
		"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
	},
}


@contextmanager
def captured_logs():
	"""Every log record of every logger while the block runs, as text lines (like pytest's caplog)."""
	lines = []
	handler = logging.Handler(logging.DEBUG)
	handler.emit = lambda record: lines.append(handler.format(record))
	root = logging.getLogger()
	level = root.level
	root.addHandler(handler)
	root.setLevel(logging.DEBUG)
	try:
		yield lines
	finally:
		root.removeHandler(handler)
		root.setLevel(level)


class TestCompletion(HufUnitTestCase):
	"""completion() and embedding() against one scripted server, reset before each test."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())

	def setUp(self):
		self.llm.reset()
		self.openai = ProviderConfig("OpenAI", api_key=KEY, api_base=self.llm.api_base)

	def test_plain_answer(self):
		self.llm.queue(Reply(content="Hi there", prompt_tokens=12, completion_tokens=3))
		answer = completion(self.openai, "scripted-model", HELLO, temperature=0.2)

		assert answer.content == "Hi there"
		assert answer.tool_calls == []
		assert answer.finish_reason == "stop"
		assert (answer.usage.input_tokens, answer.usage.output_tokens, answer.usage.total_tokens) == (
			12,
			3,
			15,
		)
		assert answer.model == "openai/scripted-model"
		assert answer.to_message() == {"role": "assistant", "content": "Hi there"}
		body = self.llm.chat_requests[-1]["body"]
		assert body["model"] == "scripted-model"
		assert body["messages"] == HELLO
		assert body["temperature"] == 0.2

	def test_key_goes_to_the_server_but_never_into_the_environment(self):
		completion(self.openai, "scripted-model", HELLO)
		assert self.llm.chat_requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"
		assert not [name for name, value in os.environ.items() if KEY in value]

	def test_streamed_deltas_then_the_whole_answer(self):
		self.llm.queue(Reply(content="The quick brown fox jumps", chunk_size=4, cached_tokens=6))
		stream = completion(self.openai, "scripted-model", HELLO, stream=True)
		chunks = list(stream)

		deltas = [chunk.delta for chunk in chunks if chunk.completion is None]
		assert len(deltas) == 7 and "".join(deltas) == "The quick brown fox jumps"
		final = chunks[-1].completion
		assert final is stream.completion
		assert final.content == "The quick brown fox jumps"
		assert final.finish_reason == "stop"
		assert (final.usage.input_tokens, final.usage.output_tokens, final.usage.cached_tokens) == (10, 5, 6)
		assert self.llm.chat_requests[-1]["body"]["stream"] is True

	def test_tool_calls_are_parsed(self):
		self.llm.queue(
			Reply(
				content=None,
				tool_calls=[
					tool_call("get_weather", {"city": "Paris"}, "call_1"),
					tool_call("get_weather", {"city": "Oslo"}, "call_2"),
				],
			)
		)
		answer = completion(self.openai, "scripted-model", HELLO, tools=[WEATHER_TOOL])

		assert answer.finish_reason == "tool_calls"
		assert [(call.id, call.name, call.args) for call in answer.tool_calls] == [
			("call_1", "get_weather", {"city": "Paris"}),
			("call_2", "get_weather", {"city": "Oslo"}),
		]
		assert answer.to_message()["tool_calls"][0] == {
			"id": "call_1",
			"type": "function",
			"function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
		}
		assert self.llm.chat_requests[-1]["body"]["tools"][0]["function"]["name"] == "get_weather"

	def test_streamed_tool_call_is_assembled(self):
		self.llm.queue(
			Reply(content="Let me check.", tool_calls=[tool_call("get_weather", {"city": "Rome"}, "call_9")])
		)
		chunks = list(completion(self.openai, "scripted-model", HELLO, tools=[WEATHER_TOOL], stream=True))
		final = chunks[-1].completion
		assert final.content == "Let me check."
		assert [(call.id, call.name, call.args) for call in final.tool_calls] == [
			("call_9", "get_weather", {"city": "Rome"})
		]

	def test_invalid_tool_arguments_are_reported_not_raised(self):
		self.llm.queue(Reply(content=None, tool_calls=[tool_call("get_weather", "{not json", "call_x")]))
		call = completion(self.openai, "scripted-model", HELLO, tools=[WEATHER_TOOL]).tool_calls[0]
		assert call.args is None and call.arguments == "{not json"

	def test_rate_limit_is_retried_after_the_retry_after_delay(self):
		self.llm.queue(
			Reply(status=429, error="Rate limit reached", headers={"Retry-After": "0.4"}), "Finally"
		)
		started = time.monotonic()
		answer = completion(self.openai, "scripted-model", HELLO, retry=FAST)

		assert answer.content == "Finally"
		assert answer.attempts == 2
		assert len(self.llm.chat_requests) == 2
		assert time.monotonic() - started >= 0.4  # the backoff alone would have waited ~0.01 s

	def test_retry_after_longer_than_allowed_gives_up_at_once(self):
		self.llm.queue(Reply(status=429, error="Try tomorrow", headers={"Retry-After": "3600"}), "never")
		with self.assertRaises(ProviderError) as caught:
			completion(self.openai, "scripted-model", HELLO, retry=FAST)
		assert len(self.llm.chat_requests) == 1
		assert caught.exception.status_code == 429 and "Try tomorrow" in caught.exception.message

	def test_persisting_server_error_fails_clearly_after_all_attempts(self):
		self.llm.queue(*[Reply(status=500, error="upstream exploded")] * 3, "too late")
		with self.assertRaises(ProviderError) as caught:
			completion(self.openai, "scripted-model", HELLO, retry=FAST)

		error = caught.exception
		assert len(self.llm.chat_requests) == 3
		assert (error.status_code, error.attempts, error.provider) == (500, 3, "OpenAI")
		assert (
			error.message
			== "OpenAI failed for model openai/scripted-model after 3 attempts (HTTP 500): upstream exploded"
		)
		assert error.__cause__ is None and error.__context__ is None

	def test_service_unavailable_is_retried_like_other_5xx(self):
		self.llm.queue(Reply(status=503, error="overloaded"), Reply(status=502, error="bad gateway"), "back")
		assert completion(self.openai, "scripted-model", HELLO, retry=FAST).attempts == 3

	def test_bad_request_is_not_retried(self):
		self.llm.queue(Reply(status=400, error="Invalid value for 'tool_choice'"), "unused")
		with self.assertRaises(ProviderError) as caught:
			completion(self.openai, "scripted-model", HELLO, retry=FAST)
		assert len(self.llm.chat_requests) == 1
		assert caught.exception.attempts == 1
		assert (
			caught.exception.message
			== "OpenAI rejected the request for model openai/scripted-model (HTTP 400): Invalid value for 'tool_choice'"
		)

	def test_timeout_is_retried(self):
		self.llm.queue(Reply(content="slow", delay=1.5), "fast")
		answer = completion(self.openai, "scripted-model", HELLO, retry=FAST, timeout=0.5)
		assert (answer.content, answer.attempts) == ("fast", 2)

	def test_connection_refused_fails_after_the_retries(self):
		with socket.socket() as sock:
			sock.bind(("127.0.0.1", 0))
			port = sock.getsockname()[1]  # closed again before the call: nothing listens there
		closed = ProviderConfig("OpenAI", api_key=KEY, api_base=f"http://127.0.0.1:{port}/v1")
		with self.assertRaises(ProviderError) as caught:
			completion(closed, "scripted-model", HELLO, retry=FAST)
		assert caught.exception.attempts == 3
		assert "connection error" in caught.exception.message

	def test_key_echoed_by_the_provider_is_not_in_the_error_nor_the_logs(self):
		self.llm.queue(Reply(status=401, error=f"Incorrect API key provided: {KEY}"))
		with captured_logs() as logs, self.assertRaises(ProviderError) as caught:
			completion(self.openai, "scripted-model", HELLO, retry=FAST)

		error = caught.exception
		assert error.status_code == 401 and len(self.llm.chat_requests) == 1
		assert "refused the API key" in error.message and "Incorrect API key provided" in error.message
		assert KEY not in str(error) and KEY not in repr(error.args)
		assert error.__cause__ is None and error.__context__ is None
		assert not [line for line in logs if KEY in line]
		assert KEY not in repr(self.openai)

	def test_context_window_error_trims_and_retries_once(self):
		messages = [{"role": "system", "content": "You are terse."}]
		for i in range(12):
			messages.append(
				{
					"role": "user" if i % 2 == 0 else "assistant",
					"content": f"turn {i} " + "lorem ipsum dolor " * 8,
				}
			)
		overflow = "This model's maximum context length is 150 tokens. However, your messages resulted in 900 tokens."
		self.llm.queue(Reply(status=400, error=overflow), "Short enough")

		repaired = []
		answer = completion(
			self.openai,
			"scripted-model",
			messages,
			retry=FAST,
			repair_messages=lambda m: repaired.append(m) or m,
		)

		assert answer.content == "Short enough" and answer.attempts == 2
		first, second = (request["body"]["messages"] for request in self.llm.chat_requests)
		assert first == messages
		assert len(second) < len(messages)
		assert second[0] == messages[0]  # the system prompt survives
		assert second[-1] == messages[-1]  # the newest turn survives
		assert answer.trimmed_messages == second == repaired[0]

	def test_context_window_error_after_trimming_fails_clearly(self):
		messages = [
			{"role": "user", "content": "lorem ipsum " * 200},
			{"role": "user", "content": "and now?"},
		]
		overflow = "This model's maximum context length is 100 tokens. However, your messages resulted in 900 tokens."
		self.llm.queue(Reply(status=400, error=overflow), Reply(status=400, error=overflow), "unused")
		with self.assertRaises(ContextWindowError) as caught:
			completion(self.openai, "scripted-model", messages, retry=FAST)
		assert len(self.llm.chat_requests) == 2
		assert caught.exception.message.startswith(
			"The conversation is too long for model openai/scripted-model even after trimming"
		)

	def test_unsupported_parameters_are_dropped(self):
		completion(self.openai, "gpt-5-mini", HELLO, temperature=0.3, top_p=0.9)
		body = self.llm.chat_requests[-1]["body"]
		assert body["model"] == "gpt-5-mini"
		assert "temperature" not in body and "top_p" not in body

	@patch.dict("os.environ", {"OPENAI_API_KEY": "sk-from-env-0000000000"})
	def test_env_key_is_used_only_when_the_provider_has_none(self):
		completion(ProviderConfig("OpenAI", api_base=self.llm.api_base), "scripted-model", HELLO)
		assert self.llm.chat_requests[-1]["headers"]["authorization"] == "Bearer sk-from-env-0000000000"

		completion(ProviderConfig("OpenAI", api_key=KEY, api_base=self.llm.api_base), "scripted-model", HELLO)
		assert self.llm.chat_requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"

		# a self-hosted OpenAI-compatible server never receives the OpenAI key from the environment
		completion(ProviderConfig("Local vLLM", api_base=self.llm.api_base), "qwen2.5", HELLO)
		assert self.llm.chat_requests[-1]["headers"]["authorization"] == "Bearer no-key"
		assert self.llm.chat_requests[-1]["body"]["model"] == "qwen2.5"

	@patch.dict("os.environ")
	def test_provider_without_any_key_fails_before_calling(self):
		os.environ.pop("ANTHROPIC_API_KEY", None)
		with self.assertRaises(ProviderNotConfiguredError) as caught:
			completion(ProviderConfig("Anthropic"), "claude-sonnet-4-5", HELLO)
		assert (
			caught.exception.message
			== "AI Provider Anthropic has no API key. Set it on the AI Provider (or set ANTHROPIC_API_KEY)."
		)

	def test_embeddings_come_back_in_input_order(self):
		result = embedding(self.openai, "text-embedding-3-small", ["red apple", "green pear", "red apple"])
		assert len(result.vectors) == 3 and len(result.vectors[0]) == self.llm.embedding_dimension
		assert result.vectors[0] == result.vectors[2] != result.vectors[1]
		assert self.llm.requests[-1]["headers"]["authorization"] == f"Bearer {KEY}"

	def test_prompt_caching_marks_system_and_last_user_message(self):
		messages = [
			{"role": "system", "content": "Long instructions"},
			{"role": "user", "content": "first"},
			{"role": "assistant", "content": "ok"},
			{"role": "user", "content": [{"type": "text", "text": "second"}]},
		]
		marked = apply_prompt_caching(messages, "claude-sonnet-4-5", "Anthropic")

		ephemeral = {"type": "ephemeral"}
		assert marked[0]["content"] == [
			{"type": "text", "text": "Long instructions", "cache_control": ephemeral}
		]
		assert marked[1] == messages[1] and marked[2] == messages[2]
		assert marked[3]["content"] == [{"type": "text", "text": "second", "cache_control": ephemeral}]
		assert "cache_control" not in messages[3]["content"][0]  # the input is not modified

	def test_prompt_caching_leaves_automatic_or_unknown_models_alone(self):
		messages = [{"role": "system", "content": "x"}, {"role": "user", "content": "y"}]
		assert apply_prompt_caching(messages, "gpt-4o", "OpenAI") is messages  # OpenAI caches by itself
		assert apply_prompt_caching(messages, "no-such-model", "Anthropic") is messages


class TestProviderFromDocType(HufTestCase):
	"""The key is read from the AI Provider's Password field and sent per call."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())

	def setUp(self):
		self.llm.reset()
		if frappe.db.exists("AI Provider", "Scripted Cloud"):
			frappe.delete_doc("AI Provider", "Scripted Cloud", force=True)
		frappe.get_doc(
			{
				"doctype": "AI Provider",
				"provider_name": "Scripted Cloud",
				"api_key": KEY,
				"api_base": self.llm.api_base,
			}
		).insert()

	def test_stored_key_and_api_base_are_used(self):
		answer = completion("Scripted Cloud", "scripted-model", HELLO)

		self.assertEqual(answer.content, "OK")
		request = self.llm.chat_requests[-1]
		self.assertEqual(request["headers"]["authorization"], f"Bearer {KEY}")
		self.assertEqual(
			request["body"]["model"], "scripted-model"
		)  # unknown provider + api_base: OpenAI-compatible
		self.assertFalse([name for name, value in os.environ.items() if KEY in value])

	def test_config_hides_the_key_and_names_are_case_insensitive(self):
		config = get_provider_config("scripted cloud")
		self.assertEqual(
			(config.name, config.api_key, config.api_base), ("Scripted Cloud", KEY, self.llm.api_base)
		)
		self.assertNotIn(KEY, repr(config))

	def test_missing_provider_is_a_clear_error(self):
		with self.assertRaises(ProviderNotConfiguredError) as caught:
			completion("No Such Provider", "scripted-model", HELLO)
		self.assertEqual(caught.exception.message, "AI Provider No Such Provider does not exist.")


def provider(name: str, **values) -> "frappe.model.document.Document":
	"""A saved AI Provider named `name` with the fields `values`."""
	return frappe.get_doc({"doctype": "AI Provider", "provider_name": name, **values}).insert(
		ignore_permissions=True
	)


class TestRouteCredentials(HufTestCase):
	"""The settings a saved AI Provider's route carries to LiteLLM per call (secrets decrypted per call,
	never in repr), and the key a route still needs."""

	def test_the_route_settings_reach_the_call_and_secrets_stay_out_of_repr(self):
		doc = provider(
			"Routes Bedrock",
			provider_type="AWS Bedrock",
			aws_access_key_id="AKIAROUTES",
			aws_secret_access_key=AWS_SECRET,
			aws_region_name="eu-west-1",
		)
		self.assertNotIn(AWS_SECRET, frappe.as_json(frappe.get_doc("AI Provider", doc.name).as_dict()))
		config = get_provider_config(doc.name)
		self.assertNotIn(AWS_SECRET, repr(config))
		kwargs = _credentials(config, "bedrock/anthropic.claude-3-haiku-20240307-v1:0")
		self.assertEqual(
			kwargs,
			{
				"aws_access_key_id": "AKIAROUTES",
				"aws_secret_access_key": AWS_SECRET,
				"aws_region_name": "eu-west-1",
			},
		)

	def test_a_key_is_still_required_where_the_route_needs_one(self):
		provider("Routes Anthropic", provider_type="Anthropic")
		with self.assertRaisesRegex(Exception, "has no API key"):
			_credentials(get_provider_config("Routes Anthropic"), "anthropic/claude-3-5-haiku-20241022")
		compatible = provider(
			"Routes Compatible", provider_type="OpenAI-compatible", api_base="http://127.0.0.1:9/v1"
		)
		# OpenAI's client would fall back to OPENAI_API_KEY and send it to the server: a placeholder goes
		self.assertEqual(_credentials(get_provider_config(compatible.name), "openai/x")["api_key"], "no-key")
