"""One thread per process that keeps the held locks alive (see `locks.ConversationLock`).

A lock joins with `add(member, every)` when it is taken and leaves with `discard(member)` when it is
released; every `every` seconds the thread calls `member.beat()`, which returns False when the member
should leave (its lock was lost). Taking and releasing a lock so starts no thread and waits for none,
and `discard` returns only once a beat of that member in progress has ended.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Protocol


class Member(Protocol):
	def beat(self) -> bool: ...


_condition = threading.Condition()
_due: dict[Member, tuple[float, float]] = {}  # member -> (next beat, seconds between beats)
_beating: Member | None = None
_thread: threading.Thread | None = None


def add(member: Member, every: float) -> None:
	"""Call `member.beat()` every `every` seconds until it returns False or `discard(member)`."""
	global _thread
	with _condition:
		_due[member] = (time.monotonic() + every, every)
		if _thread is None or not _thread.is_alive():
			_thread = threading.Thread(target=_run, name="huf-lock-heartbeat", daemon=True)
			_thread.start()
		_condition.notify_all()


def discard(member: Member) -> None:
	"""Stop beating `member` (after the beat in progress, if it is that member's)."""
	with _condition:
		_due.pop(member, None)
		while _beating is member:
			_condition.wait()


def _run() -> None:
	global _beating
	while True:
		with _condition:
			now = time.monotonic()
			member = min(_due, key=lambda m: _due[m][0], default=None)
			if member is None or _due[member][0] > now:
				_condition.wait(None if member is None else _due[member][0] - now)
				continue
			every = _due[member][1]
			_due[member] = (now + every, every)
			_beating = member
		try:
			keep = member.beat()
		except Exception:
			keep = True  # the cache may be briefly unreachable; the next beat tries again
		with _condition:
			_beating = None
			if not keep:
				_due.pop(member, None)
			_condition.notify_all()


def _after_fork() -> None:
	"""A forked child has no heartbeat thread and holds none of its parent's locks."""
	global _condition, _thread, _beating
	_condition, _thread, _beating = threading.Condition(), None, None
	_due.clear()


if hasattr(os, "register_at_fork"):
	os.register_at_fork(after_in_child=_after_fork)
