"""One LLM round trip, as the LiteLLM seam reports it: a prompt-log line and a `chat` span.

`observe(provider, request)` is called by `huf.ai.providers.litellm.completion` with the request it
sends; it returns `NOOP` (free) when the prompt log and traces are both off.
"""

import time
from typing import Any

from huf.ai.observability import settings, traces


class LLMCall:
	"""An observed call: `done(completion)` or `fail(error)` once; as a context manager an exception fails it."""

	def __init__(self, provider: str = "", request: dict | None = None, log_mode: str | None = None):
		self.provider, self.request, self.log_mode = provider, request or {}, log_mode
		self.span = traces.llm_span(provider, self.request) if request is not None else traces.NOOP
		self.started = time.monotonic()
		self.finished = request is None

	def done(self, completion: Any) -> None:
		"""Report the answer (a `providers.types.Completion`)."""
		if self.finished:
			return
		self.finished = True
		usage = completion.usage.as_dict()
		self.span.set(
			{
				"gen_ai.response.model": completion.model,
				"gen_ai.usage.input_tokens": usage["input_tokens"],
				"gen_ai.usage.output_tokens": usage["output_tokens"],
				"huf.usage.cached_tokens": usage["cached_tokens"],
				"gen_ai.response.finish_reasons": [completion.finish_reason or ""],
				"huf.attempts": completion.attempts,
			}
		)
		self.span.end()
		if self.log_mode:
			self._log(completion.to_message(), usage, completion.attempts, None)

	def fail(self, error: BaseException | str) -> None:
		"""Report a call that failed for good."""
		if self.finished:
			return
		self.finished = True
		message = str(getattr(error, "message", None) or error)
		self.span.fail(message, type(error).__name__ if isinstance(error, BaseException) else None)
		self.span.end()
		if self.log_mode:
			self._log(None, None, getattr(error, "attempts", None), message)

	def _log(
		self, response: dict | None, usage: dict | None, attempts: int | None, error: str | None
	) -> None:
		from huf.ai.observability import prompt_log

		try:
			prompt_log.write(
				prompt_log.entry(
					self.provider,
					self.request,
					response=response,
					usage=usage,
					latency_ms=(time.monotonic() - self.started) * 1000,
					attempts=attempts,
					error=error,
					scrub=self.log_mode == "scrub",
				)
			)
		except Exception:
			import frappe

			frappe.log_error(title="Huf prompt log: could not write an entry")

	def __enter__(self) -> "LLMCall":
		return self

	def __exit__(self, exc_type, exc, tb) -> None:
		if exc is not None:
			self.fail(exc)


NOOP = LLMCall()


def observe(provider: str, request: dict) -> LLMCall:
	"""Start observing one LLM call; NOOP when neither the prompt log nor traces are on."""
	log_mode = settings.prompt_log_mode()
	if not log_mode and not settings.otel_endpoint():
		return NOOP
	return LLMCall(provider, request, log_mode)
