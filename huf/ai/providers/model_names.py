"""Model-name normalisation: AI Provider + AI Model names -> the `prefix/model` names LiteLLM routes on.

Pure functions (no litellm import), so the DocTypes and the cost calculator can use them cheaply.
"""

from __future__ import annotations

import os

import frappe
from frappe import _

from huf.ai.providers.routes import KNOWN_LITELLM_PREFIXES, Route, route_for

MAX_MODEL_NAME = 500  # characters; a longer "model" is no model name, and LiteLLM takes seconds on one


def provider_kind(provider: str | None) -> str | None:
	"""What names an AI Provider's route: its Provider Type when the record has one, else its name."""
	if not provider:
		return provider
	# read once per request or job (a run prices each of its model calls with it)
	return frappe.db.get_value("AI Provider", provider, "provider_type", cache=True) or provider


def provider_route(provider: str | None) -> Route | None:
	"""The route of a Provider Type or provider name ("Azure OpenAI", "groq"), or None when unknown."""
	return route_for(None, provider)


def provider_prefix(provider: str | None) -> str | None:
	"""The LiteLLM prefix for a Provider Type or provider name ("Google" -> "gemini"), or None when unknown."""
	route = provider_route(provider)
	return route.prefix if route else None


def normalize_model_name(model: str, provider: str | None = None, api_base: str | None = None) -> str:
	"""Return the LiteLLM name of `model` served by `provider` ("gpt-4o", "OpenAI" -> "openai/gpt-4o").

	`provider` is the AI Provider's Provider Type or name (`provider_kind`). A known provider's own route
	wins over a model id's first segment, as its ids may look like "vendor/model" ("openai/gpt-oss-20b" on
	Groq is "groq/openai/gpt-oss-20b"); a first segment naming the provider itself is its route
	("ollama/llama3.1" on Ollama is "ollama_chat/llama3.1"). Under a provider the table does not know, a
	LiteLLM prefix in the model name routes it; else a provider with an `api_base` is OpenAI-compatible.
	"""
	model = (model or "").strip()
	if not model:
		return model
	if len(model) > MAX_MODEL_NAME:
		frappe.throw(
			_("The model name is too long ({0} characters; at most {1}).").format(len(model), MAX_MODEL_NAME)
		)
	route = provider_route(provider)
	first, _slash, rest = model.partition("/")
	named = route_for(None, first) if rest else None  # what the model id's first segment names
	if route:
		if named and named.prefix == route.prefix:
			return f"{route.prefix}/{rest}"
		return f"{route.prefix}/{model}"
	if rest and first.lower() in KNOWN_LITELLM_PREFIXES:  # LiteLLM's own notation
		return f"{named.prefix}/{rest}" if named else model
	if api_base:  # an OpenAI-compatible server: its ids ("Qwen/Qwen2.5-7B") are sent as they are
		return f"openai/{model}"
	if named:  # "google/gemini-2.5-pro", "grok/grok-4"
		return f"{named.prefix}/{rest}"
	return model


def litellm_prefix_of(model_name: str) -> str | None:
	"""The provider prefix of an already normalised name ("openai/gpt-4o" -> "openai")."""
	first = model_name.split("/", 1)[0].lower() if "/" in (model_name or "") else ""
	return first if first in KNOWN_LITELLM_PREFIXES else None


def env_api_key(provider: str | None) -> str | None:
	"""BYOK fallback: the key from the provider's usual environment variable, if it is set."""
	route = provider_route(provider)
	if not route:
		return None
	for name in route.env_keys or (f"{route.prefix.upper()}_API_KEY",):
		value = os.environ.get(name)
		if value:
			return value
	return None
