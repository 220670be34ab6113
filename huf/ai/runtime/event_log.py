"""The events of a streamed run, numbered and kept for a while, so a client that lost its connection reads on.

The process that runs a streamed run (`front_door.stream_kept`) is the only writer of its log: each event
gets the next id (1, 2, 3...) and is appended to the cache list `huf:run_events:<run>` as `[id, event]`;
when the run's events end, `huf:run_events_end:<run>` holds the last id. Both keys expire
`huf_stream_log_seconds` (site config, default 600) after the last write, and a log keeps at most
`huf_stream_log_max_events` (default 10000) events: the later ones still reach the connected client but
not the log, and a reader that comes back after them gets the run's closing events from the database
instead (`complete` carries the whole answer).

`follow(run, after)` is the reader: the kept events with an id above `after`, then the new ones as they
are written, until the end. A run without a log (it ran in the background, or its log expired) is
followed through its stored status: its closing events (`run_state.final_events`) once it has ended.

The keys use the cache's raw commands through a pipeline (as `locks.py` does), so every process of a
bench shares them; Frappe Lite's in-process cache answers the same commands.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import frappe
from frappe.utils import cint

from huf.ai.runtime import run_state
from huf.ai.runtime.locks import max_run_seconds

DEFAULT_KEEP_SECONDS = 600
DEFAULT_MAX_EVENTS = 10000
POLL_SECONDS = 0.1  # how often a reader looks for new events
STATUS_SECONDS = 2.0  # how often a reader with nothing new looks at the run's stored status
IDLE_SECONDS = 15.0  # a reader says "still here" (None) after this long without an event
ENDED = ("Success", "Failed", "Cancelled", "Waiting Approval")


def keep_seconds() -> int:
	return cint(frappe.conf.get("huf_stream_log_seconds")) or DEFAULT_KEEP_SECONDS


def max_events() -> int:
	return cint(frappe.conf.get("huf_stream_log_max_events")) or DEFAULT_MAX_EVENTS


def _keys(run: str) -> tuple[bytes, bytes]:
	cache = frappe.cache()
	return cache.make_key(f"huf:run_events:{run}"), cache.make_key(f"huf:run_events_end:{run}")


class EventLog:
	"""The writer of one run's log: `append(event)` numbers and keeps an event, `end()` closes the log."""

	def __init__(self, run: str):
		self.run = run
		self.last_id = 0
		self.events_key, self.end_key = _keys(run)
		self.ttl = keep_seconds()
		self.limit = max_events()

	def append(self, event: dict) -> int:
		"""Keep `event` (unless the log is full) and return its id."""
		self.last_id += 1
		if self.last_id <= self.limit:
			pipe = frappe.cache().pipeline(transaction=False)
			pipe.rpush(self.events_key, json.dumps([self.last_id, event], default=str))
			pipe.expire(self.events_key, self.ttl)
			pipe.execute()
		return self.last_id

	def end(self) -> None:
		"""Mark the log complete: a reader that has read up to `last_id` stops there."""
		pipe = frappe.cache().pipeline(transaction=False)
		pipe.set(self.end_key, str(self.last_id), ex=self.ttl)
		pipe.expire(self.events_key, self.ttl)
		pipe.execute()


def read(run: str, after: int = 0) -> tuple[list[tuple[int, dict]], int | None]:
	"""The kept events of `run` with an id above `after`, and the last id once the log is complete."""
	events_key, end_key = _keys(run)
	pipe = frappe.cache().pipeline(transaction=False)
	# the end first: the writer appends its last event before it sets the end, so a list read after an
	# end holds every event up to it
	pipe.get(end_key)
	pipe.lrange(events_key, max(after, 0), -1)  # the event with id n is the n-th of the list
	end, entries = pipe.execute()
	found = []
	for raw in entries or ():
		event_id, event = json.loads(raw)
		if event_id > after:
			found.append((event_id, event))
	return found, (cint(end) if end is not None else None)


def read_to_end(run: str, after: int) -> bool:
	"""Whether a reader that has the events up to `after` has all of the run's (its log is complete)."""
	end = frappe.cache().get(_keys(run)[1])
	return end is not None and after >= cint(end)


def follow(run: str, after: int = 0, max_seconds: float | None = None) -> Iterator[tuple[int, dict] | None]:
	"""The events of `run` after the id `after`, kept ones first, then new ones as they come, until the end.

	Yields `(id, event)`, or None after IDLE_SECONDS without an event (a caller writes a keep-alive). Reads
	the stored status every STATUS_SECONDS while nothing comes: a run that ended without a complete log
	(its log expired or outgrew its limit, or it ran in the background) ends with its closing events from
	the database, numbered on from the last id. Stops after `max_seconds` (default: the run time limit).
	"""
	deadline = time.monotonic() + (max_seconds or max_run_seconds())
	last_event = last_status = time.monotonic()
	while time.monotonic() < deadline:
		found, end = read(run, after)
		for event_id, event in found:
			after = event_id
			yield event_id, event
		if found:
			last_event = time.monotonic()
		if end is not None and after >= end:
			return
		if not found and time.monotonic() - last_status >= STATUS_SECONDS:
			last_status = time.monotonic()
			if _ended_without_log(run, end):
				for offset, event in enumerate(run_state.final_events(run), start=1):
					yield max(after, end or 0) + offset, event
				return
		if time.monotonic() - last_event >= IDLE_SECONDS:
			last_event = time.monotonic()
			yield None
		if not found:
			time.sleep(POLL_SECONDS)


def _ended_without_log(run: str, end: int | None) -> bool:
	"""Whether the run has ended and its log will bring nothing more (complete but cut short, or none)."""
	if end is None:
		frappe.db.rollback()  # a fresh snapshot (MariaDB)
		if run_state.run_status(run) not in ENDED:
			return False
		# the writer commits the final status before its last events: give it a moment to write them
		time.sleep(STATUS_SECONDS)
		return read(run, 0)[1] is None
	return True  # complete, yet `after` is short of its end: the rest outgrew the log
