"""Model-name normalisation: AI Provider + AI Model names -> the `prefix/model` names LiteLLM routes on.

Pure functions (no litellm import), so the DocTypes and the cost calculator can use them cheaply.
"""

from __future__ import annotations

import os
import re

import frappe
from frappe import _

MAX_MODEL_NAME = 500  # characters; a longer "model" is no model name, and LiteLLM takes seconds on one

# AI Provider names (lower-cased, non-alphanumerics as "_") -> LiteLLM provider prefix.
PROVIDER_PREFIXES: dict[str, str] = {
	"openai": "openai",
	"open_ai": "openai",
	"anthropic": "anthropic",
	"google": "gemini",
	"gemini": "gemini",
	"google_gemini": "gemini",
	"google_ai_studio": "gemini",
	"openrouter": "openrouter",
	"open_router": "openrouter",
	"xai": "xai",
	"x_ai": "xai",
	"grok": "xai",
	"mistral": "mistral",
	"mistral_ai": "mistral",
	"mistralai": "mistral",
	"dashscope": "dashscope",
	"alibaba": "dashscope",
	"alibaba_cloud": "dashscope",
	"cohere": "cohere",
	"perplexity": "perplexity",
	"perplexity_ai": "perplexity",
	"meta": "meta_llama",
	"meta_llama": "meta_llama",
	"llama": "meta_llama",
}

# Prefixes users write in model names that LiteLLM knows under another name ("grok/grok-4" -> "xai/grok-4").
MODEL_PREFIX_ALIASES: dict[str, str] = {
	"google": "gemini",
	"grok": "xai",
	"alibaba": "dashscope",
	"meta": "meta_llama",
	"meta-llama": "meta_llama",
}

# LiteLLM provider prefixes a model name may already carry; such names are used as they are.
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

# Providers that serve models without an API key (local servers).
KEYLESS_PREFIXES: frozenset[str] = frozenset({"ollama", "ollama_chat", "lm_studio", "hosted_vllm", "vllm"})

# The environment variables a provider's key is usually kept in (BYOK fallback), by LiteLLM prefix.
ENV_API_KEYS: dict[str, tuple[str, ...]] = {
	"openai": ("OPENAI_API_KEY",),
	"anthropic": ("ANTHROPIC_API_KEY",),
	"gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
	"openrouter": ("OPENROUTER_API_KEY",),
	"xai": ("XAI_API_KEY",),
	"mistral": ("MISTRAL_API_KEY",),
	"dashscope": ("DASHSCOPE_API_KEY",),
	"cohere": ("COHERE_API_KEY",),
	"perplexity": ("PERPLEXITYAI_API_KEY", "PERPLEXITY_API_KEY"),
	"meta_llama": ("LLAMA_API_KEY",),
	"together_ai": ("TOGETHERAI_API_KEY", "TOGETHER_API_KEY"),
	"fireworks_ai": ("FIREWORKS_AI_API_KEY", "FIREWORKS_API_KEY"),
}


def _key(name: str | None) -> str:
	return re.sub(r"[^a-z0-9]+", "_", (name or "").strip().lower()).strip("_")


def provider_prefix(provider: str | None) -> str | None:
	"""The LiteLLM prefix for an AI Provider name ("Google" -> "gemini"), or None when unknown."""
	key = _key(provider)
	if not key:
		return None
	if key in PROVIDER_PREFIXES:
		return PROVIDER_PREFIXES[key]
	if key in KNOWN_LITELLM_PREFIXES:
		return key
	return None


def normalize_model_name(model: str, provider: str | None = None, api_base: str | None = None) -> str:
	"""Return the LiteLLM name of `model` served by `provider` ("gpt-4o", "OpenAI" -> "openai/gpt-4o").

	Names that already carry a known LiteLLM prefix pass unchanged, except on OpenRouter whose own
	model ids look like "vendor/model". A provider LiteLLM does not know but that has an `api_base`
	is treated as OpenAI-compatible.
	"""
	model = (model or "").strip()
	if not model:
		return model
	if len(model) > MAX_MODEL_NAME:
		frappe.throw(
			_("The model name is too long ({0} characters; at most {1}).").format(len(model), MAX_MODEL_NAME)
		)
	prefix = provider_prefix(provider)
	if prefix is None and api_base:
		prefix = "openai"

	if "/" in model:
		first, rest = model.split("/", 1)
		first_lower = first.lower()
		if prefix and first_lower == prefix:
			return model
		if prefix == "openrouter":
			return f"openrouter/{model}"
		if first_lower in KNOWN_LITELLM_PREFIXES:
			return model
		alias = MODEL_PREFIX_ALIASES.get(first_lower)
		if alias and prefix in (None, alias):
			return f"{alias}/{rest}"

	return f"{prefix}/{model}" if prefix else model


def litellm_prefix_of(model_name: str) -> str | None:
	"""The provider prefix of an already normalised name ("openai/gpt-4o" -> "openai")."""
	first = model_name.split("/", 1)[0].lower() if "/" in (model_name or "") else ""
	return first if first in KNOWN_LITELLM_PREFIXES else None


def env_api_key(provider: str | None) -> str | None:
	"""BYOK fallback: the key from the provider's usual environment variable, if it is set."""
	prefix = provider_prefix(provider)
	if not prefix:
		return None
	names = ENV_API_KEYS.get(prefix) or (f"{prefix.upper()}_API_KEY",)
	for name in names:
		value = os.environ.get(name)
		if value:
			return value
	return None
