"""Run the MCP SDK's coroutines from synchronous Frappe code, with a hard deadline.

One event loop runs in a daemon thread for the whole process; calls are submitted to it and the
caller waits at most `timeout` seconds. A coroutine that overstays is cancelled and the caller gets
`TimeoutError` even if the cancellation itself hangs, so a dead server never blocks a request or a run.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

T = TypeVar("T")

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_lock = threading.Lock()


def _event_loop() -> asyncio.AbstractEventLoop:
	global _loop, _loop_pid
	with _lock:
		# a forked worker inherits the loop object but not its thread: start its own
		if _loop is None or _loop.is_closed() or _loop_pid != os.getpid():
			loop = asyncio.new_event_loop()
			thread = threading.Thread(target=loop.run_forever, name="huf-mcp-loop", daemon=True)
			thread.start()
			_loop, _loop_pid = loop, os.getpid()
		return _loop


def run_sync(make_coroutine: Callable[[], Awaitable[T]], timeout: float) -> T:
	"""Run `make_coroutine()` on the MCP loop and return its result; `TimeoutError` after `timeout` s."""

	async def bounded() -> T:
		return await asyncio.wait_for(make_coroutine(), timeout)

	future = asyncio.run_coroutine_threadsafe(bounded(), _event_loop())
	try:
		# the inner wait_for cancels in time; the outer margin only guards against a stuck cancellation
		return future.result(timeout + 5)
	except (FutureTimeout, asyncio.TimeoutError):
		future.cancel()
		raise TimeoutError(f"no answer within {timeout:g} s") from None
