"""Retries for provider calls: exponential backoff with jitter, honouring `Retry-After`.

Retried: HTTP 408/409/425/429 and 5xx, timeouts and connection errors. Never retried: other 4xx
(bad request, authentication, not found, context window), which would fail the same way again.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

RETRYABLE_STATUS = frozenset({408, 409, 425, 429})

logger = logging.getLogger("huf.ai.providers")


@dataclass(frozen=True)
class RetryPolicy:
	"""How often and how long to retry a failing provider call."""

	attempts: int = 4  # first call included
	base_delay: float = 1.0  # seconds before the first retry, doubled each time
	max_delay: float = 30.0
	jitter: float = 0.25  # +/- fraction applied to the backoff delay
	max_retry_after: float = 60.0  # a longer Retry-After gives up instead of blocking the worker


class RetriesExhausted(Exception):
	"""The call failed for good: `error` is the last provider error, `attempts` the calls made."""

	def __init__(self, error: BaseException, attempts: int, retryable: bool):
		super().__init__(type(error).__name__)
		self.error = error
		self.attempts = attempts
		self.retryable = retryable


def status_code(exc: BaseException) -> int | None:
	"""The HTTP status a provider error carries, if any."""
	for attr in ("status_code", "http_status"):
		value = getattr(exc, attr, None)
		if isinstance(value, int):
			return value
	response = getattr(exc, "response", None)
	value = getattr(response, "status_code", None)
	return value if isinstance(value, int) else None


def is_retryable(exc: BaseException) -> bool:
	"""True for rate limits, server errors, timeouts and connection failures."""
	names = {cls.__name__ for cls in type(exc).__mro__}
	if "ContextWindowExceededError" in names:
		return False
	if names & {"Timeout", "APITimeoutError", "APIConnectionError", "ServiceUnavailableError"}:
		return True
	if isinstance(exc, TimeoutError | ConnectionError):
		return True
	status = status_code(exc)
	return status is not None and (status in RETRYABLE_STATUS or status >= 500)


def retry_after(exc: BaseException) -> float | None:
	"""Seconds the provider asked us to wait (`retry-after-ms` or `Retry-After`), if it said so."""
	for headers in _headers_of(exc):
		value = _header(headers, "retry-after-ms")
		if value is not None:
			try:
				return max(0.0, float(value) / 1000)
			except ValueError:
				pass
		value = _header(headers, "retry-after")
		if value is None:
			continue
		try:
			return max(0.0, float(value))
		except ValueError:
			moment = email.utils.parsedate_to_datetime(value) if value else None
			if moment is not None:
				return max(0.0, moment.timestamp() - time.time())
	return None


def _headers_of(exc: BaseException) -> list[Any]:
	found = []
	for holder in (getattr(exc, "response", None), exc):
		headers = getattr(holder, "headers", None) if holder is not None else None
		if headers:
			found.append(headers)
	extra = getattr(exc, "litellm_response_headers", None)
	if extra:
		found.append(extra)
	return found


def _header(headers: Any, name: str) -> str | None:
	try:
		value = headers.get(name)
		if value is None:
			value = next((v for k, v in dict(headers).items() if str(k).lower() == name), None)
	except (AttributeError, TypeError, ValueError):
		return None
	return None if value is None else str(value).strip()


def backoff_delay(policy: RetryPolicy, retry_number: int) -> float:
	"""Delay before retry `retry_number` (1 for the first retry): doubling, capped, with jitter."""
	delay = min(policy.max_delay, policy.base_delay * (2 ** (retry_number - 1)))
	return max(0.0, delay * random.uniform(1 - policy.jitter, 1 + policy.jitter))


def call_with_retries(
	call: Callable[[], T],
	policy: RetryPolicy,
	describe: str = "provider call",
	sleep: Callable[[float], None] = time.sleep,
) -> tuple[T, int]:
	"""Run `call` until it succeeds or fails for good; returns (result, attempts made).

	Raises `RetriesExhausted` wrapping the last error.
	"""
	attempt = 0
	while True:
		attempt += 1
		try:
			return call(), attempt
		except Exception as exc:
			retryable = is_retryable(exc)
			if not retryable or attempt >= max(1, policy.attempts):
				raise RetriesExhausted(exc, attempt, retryable) from None
			wait = retry_after(exc)
			if wait is not None and wait > policy.max_retry_after:
				raise RetriesExhausted(exc, attempt, retryable) from None
			delay = wait if wait is not None else backoff_delay(policy, attempt)
			logger.warning(
				"%s failed (attempt %s of %s, %s, HTTP %s); retrying in %.2fs",
				describe, attempt, policy.attempts, type(exc).__name__, status_code(exc), delay,
			)  # fmt: skip
			sleep(delay)
