"""The LiteLLM seam: the only module that imports litellm, and only inside functions.

`completion()` and `embedding()` take the AI Provider (name or `ProviderConfig`) and the model, pass
the API key and `api_base` per call (never through `os.environ`), drop parameters the model does
not support, retry transient failures, trim the messages once on a context-window error, and turn
any failure that survives into one `ProviderError` with a readable message free of the key. The
media calls (`huf.ai.providers.media_calls`) go through the same helpers. The results are the
types of `huf.ai.providers.types`; callers outside `huf.ai.providers` reach these functions through
`huf.ai.providers.calls`.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import frappe
from frappe import _

from huf.ai.observability import llm_calls
from huf.ai.providers import ContextWindowError, ProviderError, ProviderNotConfiguredError
from huf.ai.providers.model_names import (
	env_api_key,
	litellm_prefix_of,
	normalize_model_name,
	provider_route,
)
from huf.ai.providers.rate_limit import wait_for_slot
from huf.ai.providers.retry import RetriesExhausted, RetryPolicy, call_with_retries, status_code
from huf.ai.providers.routes import ROUTES
from huf.ai.providers.types import Chunk, Completion, Embeddings, ProviderConfig, ToolCall, Usage
from huf.huf.secret_text import mask_text

DEFAULT_TIMEOUT = 120.0
TRIM_RATIO = 0.75
# Providers whose prompt caching needs explicit cache_control markers; OpenAI, DeepSeek and the
# like cache long prefixes automatically and need (and may reject) no markers.
EXPLICIT_CACHE_PREFIXES = frozenset({"anthropic", "bedrock", "vertex_ai", "openrouter"})
# OpenAI-compatible servers without authentication still need some key, or the client falls back
# to OPENAI_API_KEY from the environment and would send it to that server.
NO_KEY = "no-key"

_CONTEXT_WINDOW_TEXT = re.compile(
	r"context[_ ](length|window)|maximum context|prompt is too long|too many tokens|reduce the length", re.I
)
_CONTEXT_LIMIT = re.compile(
	r"(?:maximum context length|context window|limit) (?:is|of) (\d[\d,]*) tokens", re.I
)
_ERROR_PREFIX = re.compile(r"^\s*(litellm\.\w+:\s*|\w*(Error|Exception)\s*(:|-)\s*)")


def get_litellm():
	"""Import litellm on first use, with its bundled price map (no network fetch at import)."""
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
	import litellm

	litellm.suppress_debug_info = True
	return litellm


def warm_up_client() -> None:
	"""Import LiteLLM and make one mocked completion through its OpenAI-compatible route (no network),
	so that the modules LiteLLM imports on its first call are loaded before a run needs them."""
	get_litellm().completion(
		model="openai/huf-warm-up",
		messages=[{"role": "user", "content": "warm-up"}],
		api_base="http://127.0.0.1:9/v1",
		api_key=NO_KEY,
		mock_response="ok",
	)


# --- provider configuration ------------------------------------------------------------------

# Route settings stored encrypted (Password fields), read with the key; the others come with the record
SECRET_SETTINGS = frozenset({"aws_secret_access_key", "vertex_credentials"})
PLAIN_SETTINGS = sorted({name for route in ROUTES for name in route.settings} - SECRET_SETTINGS)


def get_provider_config(provider: str) -> ProviderConfig:
	"""Read an AI Provider: its name, type, decrypted API key and route settings, `api_base`, limits."""
	fields = [
		"name", "provider_name", "provider_type", "api_base", "requests_per_minute", "requests_per_day",
		*PLAIN_SETTINGS,
	]  # fmt: skip
	row = frappe.db.get_value("AI Provider", provider, fields, as_dict=True) if provider else None
	if not row and provider:
		row = next(
			iter(frappe.get_all("AI Provider", filters={"provider_name": ["like", provider]}, fields=fields)),
			None,
		)
	if not row:
		raise ProviderNotConfiguredError(
			_("AI Provider {0} does not exist.").format(provider or "''"), provider=provider
		)

	from frappe.utils.password import get_decrypted_password

	def secret(fieldname: str) -> str | None:
		return get_decrypted_password("AI Provider", row.name, fieldname, raise_exception=False) or None

	route = provider_route(row.provider_type or row.provider_name or row.name)
	names = route.settings if route else ()
	settings = {name: secret(name) if name in SECRET_SETTINGS else row.get(name) for name in names}
	return ProviderConfig(
		name=row.provider_name or row.name,
		api_key=secret("api_key"),
		api_base=row.api_base or None,
		requests_per_minute=max(0, int(row.requests_per_minute or 0)),
		requests_per_day=max(0, int(row.requests_per_day or 0)),
		provider_type=row.provider_type or None,
		settings={name: value for name, value in settings.items() if value},
	)


def _as_config(provider: str | ProviderConfig) -> ProviderConfig:
	return provider if isinstance(provider, ProviderConfig) else get_provider_config(provider)


def _credentials(config: ProviderConfig, litellm_model: str) -> dict:
	"""api_key / api_base and the route's settings (api_version, AWS and Vertex credentials) as kwargs
	for one call. The environment is read (BYOK), never written."""
	credentials: dict[str, Any] = dict(config.settings)
	if config.api_base:
		credentials["api_base"] = config.api_base
	api_key = config.api_key or env_api_key(config.kind)
	if not api_key:
		route = provider_route(config.kind) or provider_route(litellm_prefix_of(litellm_model))
		if route and route.keyless and route.prefix != "openai":  # OpenAI's client would send OPENAI_API_KEY
			return credentials
		if not config.api_base:
			env_names = route.env_keys if route else ()
			hint = _(" (or set {0})").format(env_names[0]) if env_names else ""
			raise ProviderNotConfiguredError(
				_("AI Provider {0} has no API key. Set it on the AI Provider{1}.").format(config.name, hint),
				provider=config.name,
				model=litellm_model,
			)
		api_key = NO_KEY
	credentials["api_key"] = api_key
	return credentials


def default_retry_policy() -> RetryPolicy:
	"""The retry policy, adjustable per site with `huf_llm_retry_attempts` in site_config."""
	try:
		attempts = int(frappe.conf.get("huf_llm_retry_attempts") or 0)
	except Exception:
		attempts = 0
	return RetryPolicy(attempts=attempts) if attempts > 0 else RetryPolicy()


# --- calls -----------------------------------------------------------------------------------


def completion(
	provider: str | ProviderConfig,
	model: str,
	messages: list[dict],
	tools: list[dict] | None = None,
	stream: bool = False,
	temperature: float | None = None,
	top_p: float | None = None,
	*,
	tool_choice: str | dict | None = None,
	timeout: float | None = None,
	retry: RetryPolicy | None = None,
	repair_messages: Callable[[list[dict]], list[dict]] | None = None,
	**kwargs: Any,
) -> Completion | CompletionStream:
	"""Ask `model` of `provider` for the next assistant message.

	Returns a `Completion`, or with `stream=True` a `CompletionStream` of `Chunk`s. `repair_messages`
	is applied to the messages after a context-window trim (to keep tool-call pairs valid). Extra
	keyword arguments (max_tokens, response_format, reasoning_effort...) go to LiteLLM.
	"""
	config = _as_config(provider)
	litellm_model = normalize_model_name(model, config.kind, config.api_base)
	request: dict[str, Any] = {
		"model": litellm_model,
		"messages": messages,
		"drop_params": True,
		"max_retries": 0,  # retries are ours, so Retry-After and the attempt count stay under control
		"timeout": timeout or DEFAULT_TIMEOUT,
		**_credentials(config, litellm_model),
	}
	if tools:
		request["tools"] = tools
		if tool_choice is not None:
			request["tool_choice"] = tool_choice
	if temperature is not None:
		request["temperature"] = temperature
	if top_p is not None:
		request["top_p"] = top_p
	if stream:
		request["stream"] = True
		request["stream_options"] = {"include_usage": True}
	request.update(kwargs)
	policy = retry or default_retry_policy()
	observed = llm_calls.observe(config.name, request)  # prompt log and traces; a no-op when both are off

	if stream:
		return CompletionStream(config, request, policy, repair_messages, observed)

	litellm = get_litellm()
	with observed:
		response, attempts, trimmed = _call(
			config, request, policy, repair_messages, lambda kw: litellm.completion(**kw)
		)
		answer = _to_completion(response, config, litellm_model, attempts, trimmed)
		observed.done(answer)
	return answer


class CompletionStream:
	"""Iterate to get `Chunk`s as they arrive; the last chunk (and `.completion`) holds the full answer.

	The request is made (and retried) when the stream is created, so failures before the first
	token raise `ProviderError` right away; a failure mid-stream raises it during iteration.
	"""

	def __init__(
		self,
		config: ProviderConfig,
		request: dict,
		policy: RetryPolicy,
		repair_messages=None,
		observed: llm_calls.LLMCall = llm_calls.NOOP,
	):
		self.config = config
		self.model = request["model"]
		self.completion: Completion | None = None
		self._request = request
		self._observed = observed
		self._litellm = get_litellm()

		def start(kw: dict):
			iterator = iter(self._litellm.completion(**kw))
			return iterator, next(iterator, None)

		with observed:
			(self._iterator, self._first), self.attempts, self.trimmed = _call(
				config, request, policy, repair_messages, start
			)

	def __iter__(self) -> Iterator[Chunk]:
		raw_chunks = []
		failure = None
		try:
			pending = [self._first] if self._first is not None else []
			for raw in _chain(pending, self._iterator):
				raw_chunks.append(raw)
				choices = _get(raw, "choices") or []
				delta = _get(choices[0], "delta") if choices else None
				text = _get(delta, "content") or ""
				reasoning = _get(delta, "reasoning_content") or ""
				if text or reasoning:
					yield Chunk(delta=text, reasoning=reasoning)
		except Exception as exc:
			failure = RetriesExhausted(exc, self.attempts, retryable=False)
		if failure is not None:
			error = _provider_error(failure, self.config, self._request)
			self._observed.fail(error)
			raise error

		messages = self.trimmed or self._request["messages"]
		built = self._litellm.stream_chunk_builder(raw_chunks, messages=messages) if raw_chunks else None
		self.completion = _to_completion(built, self.config, self.model, self.attempts, self.trimmed)
		self._observed.done(self.completion)
		yield Chunk(completion=self.completion)


def embedding(
	provider: str | ProviderConfig,
	model: str,
	input: str | list[str],  # noqa: A002 - LiteLLM's name
	*,
	timeout: float | None = None,
	retry: RetryPolicy | None = None,
	**kwargs: Any,
) -> Embeddings:
	"""Embed one text or a list of texts; vectors come back in input order."""
	config = _as_config(provider)
	litellm_model = normalize_model_name(model, config.kind, config.api_base)
	texts = [input] if isinstance(input, str) else list(input)
	request = {
		"model": litellm_model,
		"input": texts,
		"drop_params": True,
		"max_retries": 0,
		"timeout": timeout or DEFAULT_TIMEOUT,
		**_credentials(config, litellm_model),
		**kwargs,
	}
	litellm = get_litellm()
	response, _attempts, _trimmed = _call(
		config, request, retry or default_retry_policy(), None, lambda kw: litellm.embedding(**kw)
	)
	items = sorted(_get(response, "data") or [], key=lambda item: _get(item, "index") or 0)
	vectors = [list(_get(item, "embedding") or []) for item in items]
	return Embeddings(
		vectors=vectors, usage=_usage(_get(response, "usage")), model=litellm_model, raw=response
	)


def _call(
	config: ProviderConfig, request: dict, policy: RetryPolicy, repair_messages, invoke: Callable[[dict], Any]
):
	"""Invoke with retries; on a context-window error trim once and retry. Returns (result, attempts, trimmed)."""
	describe = f"LLM call to {config.name} ({request['model']})"
	wait_for_slot(config)  # the provider's requests per minute / per day; free without limits
	failed = None
	try:
		result, attempts = call_with_retries(lambda: invoke(request), policy, describe)
		return result, attempts, None
	except RetriesExhausted as exc:
		failed = exc
	# Raised outside the except block: the provider's exception (which may quote the key) is not chained.
	if "messages" not in request or not _is_context_window(failed.error):
		raise _provider_error(failed, config, request)

	trimmed = trim_to_fit(request["messages"], request["model"], failed.error)
	if repair_messages is not None:
		trimmed = repair_messages(trimmed)
	if trimmed == request["messages"]:
		raise _provider_error(failed, config, request, trimmed=True)

	retried = {**request, "messages": trimmed}
	second = None
	try:
		result, attempts = call_with_retries(lambda: invoke(retried), policy, describe)
		return result, failed.attempts + attempts, trimmed
	except RetriesExhausted as exc:
		second = exc
	second.attempts += failed.attempts
	raise _provider_error(second, config, request, trimmed=True)


def trim_to_fit(messages: list[dict], litellm_model: str, error: BaseException | None = None) -> list[dict]:
	"""Drop the oldest content so the messages use about 75% of the model's input limit."""
	litellm = get_litellm()
	limit = _limit_from_error(error) or _max_input_tokens(litellm_model)
	if not limit:
		try:
			limit = litellm.token_counter(model=litellm_model, messages=messages)
		except Exception:
			return messages
	return litellm.utils.trim_messages(
		messages, model=litellm_model, max_tokens=max(1, int(limit * TRIM_RATIO))
	)


def _limit_from_error(error: BaseException | None) -> int | None:
	match = _CONTEXT_LIMIT.search(str(error or ""))
	return int(match.group(1).replace(",", "")) if match else None


def _max_input_tokens(litellm_model: str) -> int | None:
	try:
		info = get_litellm().get_model_info(litellm_model)
	except Exception:
		return None
	return info.get("max_input_tokens") or info.get("max_tokens")


def _is_context_window(exc: BaseException) -> bool:
	names = {cls.__name__ for cls in type(exc).__mro__}
	if "ContextWindowExceededError" in names:
		return True
	return status_code(exc) in (400, 413) and bool(_CONTEXT_WINDOW_TEXT.search(str(exc)))


# --- errors ----------------------------------------------------------------------------------


def _provider_error(
	failed: RetriesExhausted, config: ProviderConfig, request: dict, trimmed: bool = False
) -> ProviderError:
	"""One readable ProviderError for a failure that survived the retries; no secret in it."""
	exc = failed.error
	status = status_code(exc)
	secrets = [s for s in (config.api_key, request.get("api_key")) if s and s != NO_KEY]
	detail = _clean_detail(str(exc) or type(exc).__name__, secrets)
	name, model, attempts = config.name, request["model"], failed.attempts
	info = {
		"provider": name,
		"model": model,
		"status_code": status,
		"attempts": attempts,
		"error_type": type(exc).__name__,
	}

	if "messages" in request and _is_context_window(exc):
		extra = _(" even after trimming the oldest messages") if trimmed else ""
		message = _("The conversation is too long for model {0}{1}: {2}").format(model, extra, detail)
		return ContextWindowError(message, **info)
	if status == 429:
		message = _("{0} kept rate-limiting requests to {1} (HTTP 429), gave up after {2} attempts: {3}")
		return ProviderError(message.format(name, model, attempts, detail), **info)
	if status in (401, 403):
		message = _("{0} refused the API key (HTTP {1}). Check the API key of AI Provider {0}. {2}")
		return ProviderError(message.format(name, status, detail), **info)
	if status == 404:
		message = _("Model {0} was not found at {1} (HTTP 404): {2}")
		return ProviderError(message.format(model, name, detail), **info)
	if failed.retryable:
		if re.search(r"connection error|connect(ion)? refused|failed to connect", detail, re.I):
			what = _("connection error")
		elif status and status != 408:
			what = _("HTTP {0}").format(status)
		else:
			what = _("timed out")
		message = _("{0} failed for model {1} after {2} attempts ({3}): {4}")
		return ProviderError(message.format(name, model, attempts, what, detail), **info)
	if status:
		message = _("{0} rejected the request for model {1} (HTTP {2}): {3}")
		return ProviderError(message.format(name, model, status, detail), **info)
	message = _("The call to {0} for model {1} failed: {2}")
	return ProviderError(message.format(name, model, detail), **info)


def _clean_detail(text: str, secrets: list[str]) -> str:
	"""The provider's own message without LiteLLM's class-name prefixes, secrets or excess length."""
	text = mask_text(text, secrets)
	text = " ".join(text.split())
	previous = None
	while previous != text:
		previous, text = text, _ERROR_PREFIX.sub("", text, count=1)
	text = re.sub(r"^\w*Exception - ", "", text)
	return (text[:400] + "...") if len(text) > 400 else (text or _("no details"))


def embedding_vector_size(provider: str | ProviderConfig, model: str) -> int | None:
	"""The vector size LiteLLM's model table lists for an embedding model; None when it does not know it."""
	config = _as_config(provider)
	try:
		info = get_litellm().get_model_info(normalize_model_name(model, config.kind, config.api_base))
	except Exception:
		return None
	return int(info.get("output_vector_size") or 0) or None


# --- prompt caching --------------------------------------------------------------------------


def supports_prompt_caching(model: str, provider: str | None = None, api_base: str | None = None) -> bool:
	"""True when LiteLLM's price table lists a cache-read price for the model."""
	litellm_model = normalize_model_name(model, provider, api_base)
	try:
		info = get_litellm().get_model_info(litellm_model)
	except Exception:
		return False
	return bool(info.get("cache_read_input_token_cost"))


def apply_prompt_caching(
	messages: list[dict], model: str, provider: str | None = None, api_base: str | None = None
) -> list[dict]:
	"""Mark the system message and the last user message as cacheable where the model needs markers.

	Returns the messages unchanged when the model does not support caching or caches automatically.
	"""
	litellm_model = normalize_model_name(model, provider, api_base)
	if litellm_prefix_of(litellm_model) not in EXPLICIT_CACHE_PREFIXES:
		return messages
	if not supports_prompt_caching(litellm_model):
		return messages
	system = next((i for i, m in enumerate(messages) if m.get("role") == "system"), None)
	user = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "user"), None)
	marked = list(messages)
	for index in {i for i in (system, user) if i is not None}:
		marked[index] = _with_cache_control(messages[index])
	return marked


def _with_cache_control(message: dict) -> dict:
	content = message.get("content")
	if isinstance(content, str):
		blocks = [{"type": "text", "text": content}]
	elif isinstance(content, list) and content:
		blocks = copy.deepcopy(content)
	else:
		return message
	blocks[-1] = {**blocks[-1], "cache_control": {"type": "ephemeral"}}
	return {**message, "content": blocks}


# --- helpers ---------------------------------------------------------------------------------


def _to_completion(
	response: Any, config: ProviderConfig, litellm_model: str, attempts: int, trimmed
) -> Completion:
	choices = _get(response, "choices") or []
	choice = choices[0] if choices else None
	message = _get(choice, "message")
	calls = []
	for index, call in enumerate(_get(message, "tool_calls") or []):
		function = _get(call, "function")
		calls.append(
			ToolCall(
				id=_get(call, "id") or f"call_{index}",
				name=_get(function, "name") or "",
				arguments=_get(function, "arguments") or "{}",
			)
		)
	return Completion(
		content=_get(message, "content") or "",
		tool_calls=calls,
		finish_reason=_get(choice, "finish_reason"),
		usage=_usage(_get(response, "usage")),
		model=litellm_model,
		provider=config.name,
		reasoning=_get(message, "reasoning_content") or "",
		attempts=attempts,
		trimmed_messages=trimmed,
		raw=response,
	)


def _usage(usage: Any) -> Usage:
	"""The `Usage` of LiteLLM's (OpenAI-shaped) usage object; zero counts when there is none."""
	if not usage:
		return Usage()
	details = _get(usage, "prompt_tokens_details")
	cached = _get(details, "cached_tokens") or _get(usage, "cache_read_input_tokens") or 0
	return Usage(
		input_tokens=int(_get(usage, "prompt_tokens") or 0),
		output_tokens=int(_get(usage, "completion_tokens") or 0),
		cached_tokens=int(cached),
		cache_creation_tokens=int(_get(usage, "cache_creation_input_tokens") or 0),
	)


def _get(obj: Any, name: str) -> Any:
	if obj is None:
		return None
	if isinstance(obj, dict):
		return obj.get(name)
	return getattr(obj, name, None)


def _chain(first: list, rest: Iterator) -> Iterator:
	yield from first
	yield from rest
