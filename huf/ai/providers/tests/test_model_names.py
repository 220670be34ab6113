"""Model-name normalisation: what LiteLLM is asked for, given an AI Provider and an AI Model name."""

import os
from unittest.mock import patch

from huf.ai.providers.model_names import env_api_key, normalize_model_name, provider_prefix
from huf.ai.providers.routes import KNOWN_LITELLM_PREFIXES, PROVIDER_TYPES, ROUTES, route_for
from huf.tests.support.case import HufUnitTestCase

CASES = [
	# (provider, model, expected LiteLLM name)
	("OpenAI", "gpt-4-turbo", "openai/gpt-4-turbo"),
	("openai", "gpt-5-mini", "openai/gpt-5-mini"),
	("OpenAI", "openai/gpt-4-turbo", "openai/gpt-4-turbo"),
	("Anthropic", "claude-3-opus", "anthropic/claude-3-opus"),
	("Google", "gemini-2.5-flash", "gemini/gemini-2.5-flash"),
	("Gemini", "gemini-2.5-pro", "gemini/gemini-2.5-pro"),
	("Google", "google/gemini-2.5-pro", "gemini/gemini-2.5-pro"),
	("OpenRouter", "anthropic/claude-3.5-sonnet", "openrouter/anthropic/claude-3.5-sonnet"),
	("OpenRouter", "openrouter/auto", "openrouter/auto"),
	("xAI", "grok-4", "xai/grok-4"),
	("Grok", "grok-4", "xai/grok-4"),
	("Custom", "grok/grok-4", "xai/grok-4"),
	("Mistral", "mistral-large-latest", "mistral/mistral-large-latest"),
	("DashScope", "qwen-max", "dashscope/qwen-max"),
	("Alibaba", "qwen-plus", "dashscope/qwen-plus"),
	("Cohere", "command-r", "cohere/command-r"),
	("Perplexity", "sonar", "perplexity/sonar"),
	("Meta", "Llama-4-Maverick", "meta_llama/Llama-4-Maverick"),
	("Meta", "meta-llama/Llama-4-Maverick", "meta_llama/Llama-4-Maverick"),
	("Groq", "llama-3.3-70b", "groq/llama-3.3-70b"),
	("Together AI", "meta-llama/Llama-3-70b", "together_ai/meta-llama/Llama-3-70b"),
	# a known provider's route wins over the model id's first segment (ids that look like vendor/model)
	("Groq", "openai/gpt-oss-20b", "groq/openai/gpt-oss-20b"),
	("OpenAI", "anthropic/claude-3-opus", "openai/anthropic/claude-3-opus"),
	(
		"Fireworks",
		"accounts/fireworks/models/llama-v3p1-8b",
		"fireworks_ai/accounts/fireworks/models/llama-v3p1-8b",
	),
	("DeepInfra", "meta-llama/Llama-3-8B", "deepinfra/meta-llama/Llama-3-8B"),
	("deepinfra", "deepinfra/meta-llama/Llama-3-8B", "deepinfra/meta-llama/Llama-3-8B"),
	# providers as people name them
	("Ollama", "llama3.1", "ollama_chat/llama3.1"),
	("Ollama", "ollama/llama3.1", "ollama_chat/llama3.1"),
	("Azure OpenAI", "my-gpt-4o-deployment", "azure/my-gpt-4o-deployment"),
	("azure-openai", "gpt-4o", "azure/gpt-4o"),
	(
		"AWS Bedrock",
		"anthropic.claude-3-5-sonnet-20240620-v1:0",
		"bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0",
	),
	("Vertex AI", "gemini-2.5-flash", "vertex_ai/gemini-2.5-flash"),
	("LM Studio", "qwen2.5-7b-instruct", "lm_studio/qwen2.5-7b-instruct"),
	("DeepSeek", "deepseek-chat", "deepseek/deepseek-chat"),
	("OpenAI-compatible", "Qwen/Qwen2.5-7B-Instruct", "openai/Qwen/Qwen2.5-7B-Instruct"),
	# under a provider nobody knows, LiteLLM's own prefixes route
	("Anything", "xai/grok-4", "xai/grok-4"),
	("Anything", "mistral/mistral-large", "mistral/mistral-large"),
	("Anything", "ollama/llama3", "ollama_chat/llama3"),
	# unknown provider: unchanged, or OpenAI-compatible when it has an api_base
	("Anything", "my-model", "my-model"),
	(None, "gpt-4o", "gpt-4o"),
	("  OpenAI ", "  gpt-4o ", "openai/gpt-4o"),
]


class TestModelNames(HufUnitTestCase):
	def test_normalize_model_name(self):
		for provider, model, expected in CASES:
			with self.subTest(provider=provider, model=model):
				self.assertEqual(normalize_model_name(model, provider), expected)

	def test_unknown_provider_with_api_base_is_openai_compatible(self):
		self.assertEqual(
			normalize_model_name("qwen2.5", "Local vLLM", api_base="http://127.0.0.1:8000/v1"),
			"openai/qwen2.5",
		)
		self.assertEqual(
			normalize_model_name("ollama/llama3", "Local", api_base="http://127.0.0.1:11434"),
			"ollama_chat/llama3",
		)
		# a Hugging Face id on a vLLM server is the server's own name, not a cloud route
		self.assertEqual(
			normalize_model_name("google/gemma-2-9b", "Local vLLM", api_base="http://127.0.0.1:8000/v1"),
			"openai/google/gemma-2-9b",
		)

	def test_provider_names_are_case_and_punctuation_insensitive(self):
		self.assertEqual(provider_prefix("OPENROUTER"), "openrouter")
		self.assertEqual(provider_prefix("Open Router"), "openrouter")
		self.assertEqual(provider_prefix("x.ai"), "xai")
		self.assertIsNone(provider_prefix("nobody-knows"))

	def test_env_key_fallback_reads_the_usual_variable(self):
		with patch.dict("os.environ", {"GEMINI_API_KEY": "g-key"}):
			os.environ.pop("OPENROUTER_API_KEY", None)
			self.assertEqual(env_api_key("Google"), "g-key")
			self.assertIsNone(env_api_key("OpenRouter"))
			self.assertIsNone(env_api_key("Local vLLM"))

	def test_every_prefix_is_a_real_litellm_provider(self):
		from huf.ai.providers.litellm import get_litellm

		providers = {str(getattr(p, "value", p)) for p in get_litellm().provider_list}
		self.assertLessEqual(KNOWN_LITELLM_PREFIXES, providers, KNOWN_LITELLM_PREFIXES - providers)
		self.assertLessEqual({route.prefix for route in ROUTES}, providers)

	def test_every_provider_type_names_its_own_route(self):
		for label in PROVIDER_TYPES:
			with self.subTest(label):
				self.assertEqual(route_for(label).label, label)
				self.assertEqual(route_for(None, label).label, label)
		self.assertEqual(route_for("Groq", "My OpenAI").prefix, "groq")  # the type wins over the name
		self.assertIsNone(route_for(None, "My Company LLM"))
