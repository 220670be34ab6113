"""Which LiteLLM route serves an AI Provider: the one table of the providers Huf knows by name.

An AI Provider names its kind in `provider_type` (a choice of `PROVIDER_TYPES`); a provider saved
without one (records from before the field, or made over REST) is recognised by its name, in any case and
punctuation ("Azure OpenAI", "azure-openai", "AZURE"). Pure data and lookups: no litellm, no database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPENAI_COMPATIBLE = "OpenAI-compatible"


@dataclass(frozen=True)
class Route:
	"""One provider family: how users name it and how LiteLLM reaches it."""

	label: str  # the choice in AI Provider's Provider Type
	prefix: str  # LiteLLM's route: model names are sent as "<prefix>/<model>"
	names: tuple[str, ...] = ()  # other names users give it (normalised with `name_key`)
	env_keys: tuple[str, ...] = ()  # where its key usually lives when the AI Provider has none (BYOK)
	keyless: bool = False  # serves models without an API key (local servers, cloud credentials)
	needs_api_base: bool = False  # no public host: the AI Provider must say where it is
	settings: tuple[str, ...] = ()  # AI Provider fields this route passes to LiteLLM besides key and base
	# False: LiteLLM loses the tool calls of this route's streams, so a turn with tools is asked unstreamed
	streams_tool_calls: bool = True
	# its public OpenAI-compatible API (GET <base>/models lists the models); "" when it has none
	openai_base: str = ""
	# False: no OpenAI-compatible model list even at its own Base URL (cloud SDK routes)
	lists_models: bool = True


ROUTES: tuple[Route, ...] = (
	Route("OpenAI", "openai", ("open_ai",), ("OPENAI_API_KEY",), openai_base="https://api.openai.com/v1"),
	Route("Anthropic", "anthropic", ("claude",), ("ANTHROPIC_API_KEY",), lists_models=False),
	Route(
		"Google Gemini",
		"gemini",
		("google", "gemini", "google_ai_studio", "ai_studio", "google_ai"),
		("GEMINI_API_KEY", "GOOGLE_API_KEY"),
		openai_base="https://generativelanguage.googleapis.com/v1beta/openai",
	),
	Route(
		"Vertex AI",
		"vertex_ai",
		("vertex", "google_vertex", "google_vertex_ai", "google_cloud_vertex_ai", "gcp_vertex_ai"),
		keyless=True,
		settings=("vertex_project", "vertex_location", "vertex_credentials"),
		lists_models=False,
	),
	Route(
		"Azure OpenAI",
		"azure",
		("azure", "azure_open_ai", "microsoft_azure", "azure_openai_service", "microsoft_azure_openai"),
		("AZURE_API_KEY", "AZURE_OPENAI_API_KEY"),
		needs_api_base=True,
		settings=("api_version",),
		lists_models=False,
	),
	Route(
		"AWS Bedrock",
		"bedrock",
		("bedrock", "amazon_bedrock", "aws"),
		keyless=True,
		settings=("aws_access_key_id", "aws_secret_access_key", "aws_region_name"),
		lists_models=False,
	),
	Route(
		"Mistral",
		"mistral",
		("mistral_ai", "mistralai"),
		("MISTRAL_API_KEY",),
		openai_base="https://api.mistral.ai/v1",
	),
	Route("Groq", "groq", (), ("GROQ_API_KEY",), openai_base="https://api.groq.com/openai/v1"),
	Route(
		"Together AI",
		"together_ai",
		("together", "togetherai"),
		("TOGETHERAI_API_KEY", "TOGETHER_API_KEY"),
		openai_base="https://api.together.xyz/v1",
	),
	Route(
		"Fireworks AI",
		"fireworks_ai",
		("fireworks",),
		("FIREWORKS_AI_API_KEY", "FIREWORKS_API_KEY"),
		openai_base="https://api.fireworks.ai/inference/v1",
	),
	Route("DeepSeek", "deepseek", (), ("DEEPSEEK_API_KEY",), openai_base="https://api.deepseek.com/v1"),
	Route("xAI", "xai", ("x_ai", "grok"), ("XAI_API_KEY",), openai_base="https://api.x.ai/v1"),
	# LiteLLM before 1.100 drops the tool calls of Cohere's v2 stream (it reads another event shape)
	Route("Cohere", "cohere", ("cohere_chat",), ("COHERE_API_KEY", "CO_API_KEY"), streams_tool_calls=False),
	Route(
		"OpenRouter",
		"openrouter",
		("open_router",),
		("OPENROUTER_API_KEY",),
		openai_base="https://openrouter.ai/api/v1",
	),
	Route("Perplexity", "perplexity", ("perplexity_ai",), ("PERPLEXITYAI_API_KEY", "PERPLEXITY_API_KEY")),
	Route("DashScope", "dashscope", ("alibaba", "alibaba_cloud", "qwen"), ("DASHSCOPE_API_KEY",)),
	Route("Meta Llama", "meta_llama", ("meta", "llama", "meta_llama"), ("LLAMA_API_KEY",)),
	Route(
		"Ollama",
		"ollama_chat",
		("ollama", "ollama_chat"),
		keyless=True,
		openai_base="http://localhost:11434/v1",
	),
	Route("LM Studio", "lm_studio", ("lmstudio",), keyless=True, needs_api_base=True),
	Route(OPENAI_COMPATIBLE, "openai", keyless=True, needs_api_base=True),
)

PROVIDER_TYPES: tuple[str, ...] = tuple(route.label for route in ROUTES)

# LiteLLM provider prefixes a model name may already carry; and provider names
# that are one route there (e.g. "deepinfra").
# (A test checks that every entry is in `litellm.provider_list`.)
KNOWN_LITELLM_PREFIXES: frozenset[str] = frozenset(
	{
		"ai21", "anthropic", "azure", "azure_ai", "bedrock", "cerebras", "codestral", "cohere", "cohere_chat",
		"custom_openai", "dashscope", "databricks", "deepinfra", "deepseek", "fireworks_ai", "friendliai",
		"gemini", "github", "groq", "hosted_vllm", "huggingface", "litellm_proxy", "lm_studio", "meta_llama",
		"minimax", "mistral", "moonshot", "nebius", "novita", "nvidia_nim", "ollama", "ollama_chat", "openai",
		"openai_like", "openrouter", "perplexity", "replicate", "sambanova", "text-completion-openai",
		"together_ai", "vertex_ai", "vllm", "watsonx", "xai", "zai",
	}
)  # fmt: skip


def name_key(name: str | None) -> str:
	"""A provider name as the table matches it: lower case, runs of other characters as "_"."""
	return re.sub(r"[^a-z0-9]+", "_", (name or "").strip().lower()).strip("_")


_BY_LABEL = {route.label: route for route in ROUTES}
_BY_NAME: dict[str, Route] = {}
for _route in ROUTES:
	for _name in (_route.label, _route.prefix, *_route.names):
		_BY_NAME.setdefault(name_key(_name), _route)


def route_for(provider_type: str | None = None, provider_name: str | None = None) -> Route | None:
	"""The route of an AI Provider: its Provider Type, else what its name says; None when neither is known."""
	if provider_type:
		return _BY_LABEL.get(provider_type) or route_for(None, provider_type)
	key = name_key(provider_name)
	if not key:
		return None
	if key in _BY_NAME:
		return _BY_NAME[key]
	name = provider_name.strip()
	for prefix in (name.lower(), key):
		if prefix in KNOWN_LITELLM_PREFIXES:
			return Route(name, prefix)
	return None
