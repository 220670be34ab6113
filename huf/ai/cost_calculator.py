"""Cost of LLM calls in USD (the spec's module): custom AI Model prices, then LiteLLM's price table, else 0.

The implementation is `huf.ai.providers.cost`; see docs/providers.md.
"""

from huf.ai.providers.cost import calculate_cost, get_model_pricing, invalidate_pricing_cache

__all__ = ["calculate_cost", "get_model_pricing", "invalidate_pricing_cache"]
