"""LLM providers. `huf.ai.providers.litellm` is the only module that talks to LiteLLM.

| module | owns |
| --- | --- |
| `calls.py` | the calls the rest of Huf makes (completion, embedding, media, provider config): import them from here |
| `types.py` | the provider-neutral types: `ProviderConfig`, `Completion`, `ToolCall`, `Usage`, `Chunk`, `Embeddings`, media results |
| `litellm.py` | completions (streamed or not), embeddings, prompt caching, provider config through LiteLLM |
| `media_calls.py` | images, speech, transcription, OCR through LiteLLM |
| `retry.py` | retries with backoff on transient provider errors |
| `model_names.py` | model names with their provider prefix |
| `cost.py` | cost in USD: custom AI Model prices, then LiteLLM's price table, else 0 |

Importing this package stays cheap: litellm is imported inside the functions that call it.
The bottom layer with `huf.ai.http`: imports only `huf.huf` rules.
"""

from __future__ import annotations

import frappe


class ProviderError(frappe.ValidationError):
	"""An LLM provider call failed for good (after retries). The message is readable and holds no secret."""

	http_status_code = 502

	def __init__(
		self,
		message: str,
		*,
		provider: str | None = None,
		model: str | None = None,
		status_code: int | None = None,
		attempts: int = 1,
		error_type: str | None = None,
	):
		super().__init__(message)
		self.message = message
		self.provider = provider
		self.model = model
		self.status_code = status_code
		self.attempts = attempts
		self.error_type = error_type


class ContextWindowError(ProviderError):
	"""The messages do not fit the model's context window, even after trimming."""

	http_status_code = 413


class ProviderNotConfiguredError(ProviderError):
	"""The AI Provider is missing or has no API key (and none is set in its usual env var)."""

	http_status_code = 417


__all__ = ["ContextWindowError", "ProviderError", "ProviderNotConfiguredError"]
