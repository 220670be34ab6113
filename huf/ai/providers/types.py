"""The provider-neutral types of a model call: what a call needs (`ProviderConfig`) and what it
returns (`Completion` with its `ToolCall`s and `Usage`, streamed `Chunk`s, `Embeddings`, and the
media results `Images`, `Speech`, `Transcription`, `OCRResult`).

Callers import these from here, never from the LiteLLM module that fills them in
(`huf.ai.providers.litellm`, `huf.ai.providers.media_calls`). No LiteLLM here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from huf.ai.providers.model_names import provider_route


@dataclass(frozen=True)
class ProviderConfig:
	"""What a call needs from an AI Provider. Keys and credentials are kept out of repr() so they never
	get logged. `provider_type` (else `name`) picks the LiteLLM route (huf.ai.providers.routes)."""

	name: str
	api_key: str | None = field(default=None, repr=False)
	api_base: str | None = None
	requests_per_minute: int = 0  # 0: no limit (huf.ai.providers.rate_limit)
	requests_per_day: int = 0
	provider_type: str | None = None
	settings: dict = field(default_factory=dict, repr=False)  # the route's own fields (api_version...)

	@property
	def kind(self) -> str:
		"""What names the route: the Provider Type, else the provider's name."""
		return self.provider_type or self.name

	def streams_tool_calls(self) -> bool:
		"""Whether a streamed answer with tools keeps its tool calls on this provider's route."""
		route = provider_route(self.kind)
		return route.streams_tool_calls if route else True


@dataclass
class Usage:
	"""Token counts of one or more calls. `input_tokens` includes the cached ones."""

	input_tokens: int = 0
	output_tokens: int = 0
	cached_tokens: int = 0
	cache_creation_tokens: int = 0

	@property
	def total_tokens(self) -> int:
		return self.input_tokens + self.output_tokens

	def __add__(self, other: Usage) -> Usage:
		return Usage(
			self.input_tokens + other.input_tokens,
			self.output_tokens + other.output_tokens,
			self.cached_tokens + other.cached_tokens,
			self.cache_creation_tokens + other.cache_creation_tokens,
		)

	def as_dict(self) -> dict:
		return {
			"input_tokens": self.input_tokens,
			"output_tokens": self.output_tokens,
			"cached_tokens": self.cached_tokens,
			"cache_creation_tokens": self.cache_creation_tokens,
			"total_tokens": self.total_tokens,
		}


@dataclass
class ToolCall:
	"""One function call the model asked for; `arguments` is the raw JSON text."""

	id: str
	name: str
	arguments: str = "{}"

	@property
	def args(self) -> dict | None:
		"""The arguments parsed from JSON, or None when the model sent invalid JSON."""
		try:
			value = json.loads(self.arguments or "{}")
		except ValueError:
			return None
		return value if isinstance(value, dict) else None

	def as_dict(self) -> dict:
		return {
			"id": self.id,
			"type": "function",
			"function": {"name": self.name, "arguments": self.arguments},
		}


@dataclass
class Completion:
	"""A model answer: text and/or tool calls, usage, and how it was obtained."""

	content: str
	tool_calls: list[ToolCall]
	finish_reason: str | None
	usage: Usage
	model: str
	provider: str
	reasoning: str = ""
	attempts: int = 1
	trimmed_messages: list[dict] | None = None  # set when the context had to be trimmed
	raw: Any = field(default=None, repr=False)

	def to_message(self) -> dict:
		"""The assistant message to append to the conversation."""
		message: dict[str, Any] = {"role": "assistant", "content": self.content or None}
		if self.tool_calls:
			message["tool_calls"] = [call.as_dict() for call in self.tool_calls]
		return message


@dataclass
class Chunk:
	"""One piece of a streamed answer; the last one carries the whole `completion`."""

	delta: str = ""
	reasoning: str = ""
	completion: Completion | None = None


@dataclass
class Embeddings:
	"""One vector per input text, in input order."""

	vectors: list[list[float]]
	usage: Usage
	model: str
	raw: Any = field(default=None, repr=False)


@dataclass
class GeneratedImage:
	"""One generated image: base64 data and/or a URL the provider hosts."""

	b64_json: str | None = field(default=None, repr=False)
	url: str | None = None
	revised_prompt: str | None = None


@dataclass
class Images:
	"""The images of one generation call."""

	images: list[GeneratedImage]
	model: str
	provider: str
	raw: Any = field(default=None, repr=False)


@dataclass
class Speech:
	"""Spoken audio: its bytes and their content type (e.g. audio/mpeg)."""

	audio: bytes = field(repr=False)
	content_type: str
	model: str
	provider: str


@dataclass
class Transcription:
	"""The text of transcribed audio, its language and duration when the provider says."""

	text: str
	language: str | None
	model: str
	provider: str
	duration: float | None = None
	raw: Any = field(default=None, repr=False)


@dataclass
class OCRResult:
	"""Pages of markdown (Mistral OCR format: `index`, `markdown`, `images`)."""

	pages: list[dict]
	model: str
	provider: str
	usage: dict = field(default_factory=dict)
	raw: Any = field(default=None, repr=False)
