"""Cost of LLM calls in USD, from three sources in order of priority:

1. custom prices on the AI Model (`use_custom_pricing`; 0 is a valid price for free models),
2. LiteLLM's bundled price table: the cost LiteLLM computed for the response itself (its
   `_hidden_params["response_cost"]`, not computed a second time), else `litellm.completion_cost` /
   `litellm.cost_per_token`,
3. 0.0 when neither knows the model. Never raises.

Custom formula (per million tokens; cached tokens are part of the input tokens, so they are billed
at the cached price instead of the input price when a cached price is set):

	cost = (input_tokens - cached_tokens) / 1e6 * input_price
	     + cached_tokens / 1e6 * cached_input_price
	     + output_tokens / 1e6 * output_price
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

import frappe

from huf.ai.providers.model_names import normalize_model_name, provider_kind

# One cached table of every model's prices, dropped by the AI Model controller on save/trash/rename.
PRICING_CACHE_KEY = "huf_model_pricing"
PRICING_CACHE_TTL = 600  # seconds

logger = logging.getLogger("huf.ai.cost")


class Cost(NamedTuple):
	cost: float
	source: str  # "custom", "litellm" or "unknown"


def calculate_cost(
	model: str,
	input_tokens: int = 0,
	output_tokens: int = 0,
	cached_tokens: int = 0,
	*,
	provider: str | None = None,
	response: Any = None,
	cache_creation_tokens: int = 0,
	pricing: dict | None = None,
) -> Cost:
	"""Cost of one call to AI Model `model`. `input_tokens` are the prompt tokens as reported (cached included).

	`pricing` is the model's `pricing_of(row)` when the caller has read its AI Model row already."""
	input_tokens, output_tokens = max(0, int(input_tokens or 0)), max(0, int(output_tokens or 0))
	cached_tokens = min(max(0, int(cached_tokens or 0)), input_tokens)
	if pricing is None:
		try:
			pricing = get_model_pricing(model)
		except Exception as exc:
			logger.debug("custom pricing lookup failed for %s: %s", model, exc)

	if pricing and pricing.get("custom"):
		return Cost(cost_from_prices(pricing, input_tokens, output_tokens, cached_tokens), "custom")

	provider = provider or (pricing or {}).get("provider")
	try:
		cost = litellm_cost(
			model, provider, input_tokens, output_tokens, cached_tokens, cache_creation_tokens, response
		)
		if cost is not None:
			return Cost(cost, "litellm")
	except Exception as exc:
		logger.debug("no LiteLLM price for %s: %s", model, exc)
	return Cost(0.0, "unknown")


def cost_from_prices(pricing: dict, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> float:
	"""Apply custom per-million prices (see the module docstring)."""
	input_price = float(pricing.get("input_cost_per_1m_tokens") or 0)
	output_price = float(pricing.get("output_cost_per_1m_tokens") or 0)
	cached_price = pricing.get("cached_input_cost_per_1m_tokens")
	cost = output_tokens / 1_000_000 * output_price
	if cached_price and cached_tokens:
		cost += cached_tokens / 1_000_000 * float(cached_price)
		cost += (input_tokens - cached_tokens) / 1_000_000 * input_price
	else:
		cost += input_tokens / 1_000_000 * input_price
	return round(cost, 12)


def litellm_cost(
	model: str,
	provider: str | None,
	input_tokens: int,
	output_tokens: int,
	cached_tokens: int = 0,
	cache_creation_tokens: int = 0,
	response: Any = None,
) -> float | None:
	"""Cost from LiteLLM's price table; raises when LiteLLM does not know the model."""
	from huf.ai.providers.litellm import get_litellm

	litellm = get_litellm()
	if response is not None:
		stamped = _hidden_params(response)
		if "response_cost" not in stamped:
			try:
				return float(litellm.completion_cost(completion_response=response))
			except Exception:
				pass  # e.g. the response names a model variant LiteLLM does not map; use the token counts
		elif stamped["response_cost"] is not None:
			return float(stamped["response_cost"])  # LiteLLM priced this very call already
		# else LiteLLM could not price the response: try the model's name with the token counts
	prompt_cost, completion_cost = litellm.cost_per_token(
		model=normalize_model_name(model, provider_kind(provider)),
		prompt_tokens=input_tokens,
		completion_tokens=output_tokens,
		cache_read_input_tokens=cached_tokens,
		cache_creation_input_tokens=cache_creation_tokens,
	)
	return float(prompt_cost or 0) + float(completion_cost or 0)


def _hidden_params(response: Any) -> dict:
	"""What LiteLLM stamped on a response it returned (`response_cost` among them), else {}."""
	params = getattr(response, "_hidden_params", None)
	return params if isinstance(params, dict) else {}


def get_model_pricing(model: str) -> dict | None:
	"""{"provider", "custom", prices...} of an AI Model, from a cache kept for 10 minutes."""
	if not model:
		return None
	table = _pricing_table()
	if model in table:
		return table[model]
	lowered = model.lower()
	return next((value for name, value in table.items() if name.lower() == lowered), None)


def invalidate_pricing_cache(model: str | None = None) -> None:
	"""Forget cached prices (of every model: they are cached as one table). Called when an AI Model changes."""
	frappe.cache().delete_value(PRICING_CACHE_KEY)


# the AI Model fields `pricing_of` reads
PRICING_FIELDS = (
	"provider",
	"use_custom_pricing",
	"input_cost_per_1m_tokens",
	"output_cost_per_1m_tokens",
	"cached_input_cost_per_1m_tokens",
)


def pricing_of(row: Any) -> dict:
	"""{"provider", "custom", prices...} of an AI Model row holding PRICING_FIELDS."""
	input_price, output_price = row.input_cost_per_1m_tokens, row.output_cost_per_1m_tokens
	return {
		"provider": row.provider,
		"custom": bool(row.use_custom_pricing) or bool(input_price and output_price),
		"input_cost_per_1m_tokens": float(input_price or 0),
		"output_cost_per_1m_tokens": float(output_price or 0),
		"cached_input_cost_per_1m_tokens": float(row.cached_input_cost_per_1m_tokens or 0) or None,
	}


def _pricing_table() -> dict[str, dict]:
	cache = frappe.cache()
	table = cache.get_value(PRICING_CACHE_KEY, expires=True)  # set with an expiry: never kept per request
	if table is not None:
		return table
	rows = frappe.get_all("AI Model", fields=["name", *PRICING_FIELDS])
	table = {row.name: pricing_of(row) for row in rows}
	cache.set_value(PRICING_CACHE_KEY, table, expires_in_sec=PRICING_CACHE_TTL)
	return table
