"""Requests per minute / per day of an AI Provider (`requests_per_minute`, `requests_per_day`; 0: no limit).

Each call to a limited provider takes a slot in sliding windows (`huf.request_limits.take_slot`, sorted
sets in `frappe.cache`: shared by every web process and worker when the cache is Redis). A call that
finds a window full waits for a free slot, at most `huf_provider_rate_limit_wait` seconds (site config,
default 60); when the wait would be longer it fails at once with `ProviderRateLimitError`. A provider's
own 429 with Retry-After is waited on by `huf.ai.providers.retry`.
"""

import time

import frappe
from frappe import _
from frappe.utils import flt

from huf.ai.providers import ProviderError
from huf.request_limits import take_slot

MINUTE = 60.0
DAY = 24 * 60 * 60.0
DEFAULT_MAX_WAIT = 60.0  # seconds a call may wait for a free slot (huf_provider_rate_limit_wait)


class ProviderRateLimitError(ProviderError):
	"""The AI Provider's own requests-per-minute or per-day limit is reached (no slot within the wait)."""

	http_status_code = 429


def max_wait() -> float:
	"""Seconds a call may wait for a free slot (`huf_provider_rate_limit_wait`, default 60)."""
	value = frappe.conf.get("huf_provider_rate_limit_wait")
	return DEFAULT_MAX_WAIT if value in (None, "") else max(0.0, flt(value))


def wait_for_slot(config, sleep=time.sleep) -> None:
	"""Take a slot of `config`'s provider (a `ProviderConfig`), waiting while its windows are full.

	Free when the provider has no limit. Raises `ProviderRateLimitError` when no slot frees up in time.
	"""
	per_minute, per_day = config.requests_per_minute, config.requests_per_day
	if not (per_minute or per_day):
		return
	windows = []
	if per_minute:
		windows.append((f"huf:provider_rate:{config.name}:minute", per_minute, MINUTE))
	if per_day:
		windows.append((f"huf:provider_rate:{config.name}:day", per_day, DAY))
	deadline = time.monotonic() + max_wait()
	while True:
		wait = take_slot(windows)
		if not wait:
			return
		left = deadline - time.monotonic()
		if wait > left:
			raise _limit_error(config, per_minute, per_day, wait)
		sleep(wait)


def _limit_error(config, per_minute: int, per_day: int, wait: float) -> ProviderRateLimitError:
	limits = []
	if per_minute:
		limits.append(_("{0} requests per minute").format(per_minute))
	if per_day:
		limits.append(_("{0} requests per day").format(per_day))
	message = _(
		"The rate limit of provider {0} is reached ({1}); the next request is possible in {2} seconds."
	).format(config.name, _(" and ").join(limits), max(1, round(wait)))
	return ProviderRateLimitError(
		message, provider=config.name, status_code=429, error_type="ProviderRateLimitError"
	)
