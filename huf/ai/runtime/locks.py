"""The conversation lock (one run at a time per conversation), run liveness and inline claims.

All three are keys in the site cache with an expiry, so whatever a crashed process held frees itself:
- `huf:run_lock:<conversation>` holds the token of the process running that conversation's runs;
  the process's heartbeat thread (`heartbeat.py`) extends it every `HEARTBEAT_SECONDS` while the holder lives;
- `huf:run_alive:<run>` holds the id of the process executing that Started run (same heartbeat); a
  Started run without it was left behind by a crash (see `recovery.py`);
- `huf:run_claim:<run>` exists while an inline caller (`now=1`, the stream) waits to run its own
  queued run; the background drainer leaves claimed runs to their caller;
- `huf:drain_pending:<conversation>` exists while a drainer of the conversation is enqueued but has
  not started, so concurrent callers in any process enqueue one drainer, not one each.
- `huf:run_cancelled:<run>` is set when the run is cancelled (after its Cancelled status is
  committed): the loop checks it at every step boundary instead of reading the database.

The keys use the cache's raw `set(nx=True, ex=...)`, `get`, `expire` and `delete` (Redis commands),
so they hold across every process that shares the cache: on a bench, and standalone with
`redis_cache`. Without it the standalone cache lives in one process, which is why only `huf serve`
(web, worker and scheduler in one process) runs without Redis.
"""

from __future__ import annotations

import os
import time
import uuid

import frappe
from frappe.utils import cint

from huf.ai.runtime import heartbeat

LOCK_TTL = 60  # seconds a lock (or liveness key) survives its holder's last heartbeat
HEARTBEAT_SECONDS = 15
CLAIM_TTL = 20
DRAIN_PENDING_TTL = 120  # a drainer still waiting for a worker after this long is enqueued again
DEFAULT_MAX_RUN_SECONDS = 1800  # a run holding its lock longer is considered hung


def max_run_seconds() -> int:
	return cint(frappe.conf.get("huf_run_max_seconds")) or DEFAULT_MAX_RUN_SECONDS


def _key(kind: str, name: str) -> bytes:
	return frappe.cache().make_key(f"huf:{kind}:{name}")


class ConversationLock:
	"""Mutual exclusion for the runs of one conversation, kept alive by the process's heartbeat thread."""

	def __init__(self, conversation: str):
		self.conversation = conversation
		self.cache = frappe.cache()
		self.key = _key("run_lock", conversation)
		self.token: bytes | None = None
		self.lost = False
		self.current_run: str | None = None
		self._alive_key: bytes | None = None
		self._ended_alive_key: bytes | None = None  # deleted with the next write (see set_current_run)
		self._busy_since = 0.0  # when the current run (or, before one, the lock) was taken
		self._extended_at = 0.0  # when the lock's expiry was last set (monotonic clock)
		self._max_seconds = max_run_seconds()

	def acquire(self, blocking_timeout: float = 0.0, poll: float = 0.02) -> bool:
		"""Take the lock, waiting up to `blocking_timeout` seconds."""
		deadline = time.monotonic() + max(0.0, blocking_timeout)
		token = uuid.uuid4().hex.encode()
		while True:
			if self.cache.set(self.key, token, nx=True, ex=LOCK_TTL):
				self.token, self.lost = token, False
				self._extended_at = time.monotonic()
				self._busy_since = time.monotonic()
				heartbeat.add(self, HEARTBEAT_SECONDS)
				return True
			if time.monotonic() >= deadline:
				return False
			time.sleep(poll)

	def owned(self) -> bool:
		return self.token is not None and not self.lost and self.cache.get(self.key) == self.token

	def release(self, unclaim: str | None = None) -> None:
		"""Stop the heartbeat and free the lock if it is still ours (and drop the claim on `unclaim`).

		One round trip to the cache while the lock was set or extended less than LOCK_TTL/2 seconds ago
		(it cannot have expired, so it is ours); else the lock is read first and deleted only if ours."""
		heartbeat.discard(self)
		self.set_current_run(None)
		pipe = self.cache.pipeline(transaction=False)
		self._delete_ended_alive_key(pipe)
		if unclaim:
			pipe.delete(_forget_claim(unclaim))
		fresh = (
			self.token is not None and not self.lost and time.monotonic() - self._extended_at < LOCK_TTL / 2
		)
		if fresh:
			pipe.delete(self.key)
		else:
			pipe.get(self.key)
		holder = pipe.execute()[-1]
		if not fresh and self.token is not None and holder == self.token:
			self.cache.delete(self.key)
		self.token = None

	def set_current_run(self, run_name: str | None) -> None:
		"""Mark `run_name` alive in this process (or stop marking the previous run) while the lock is held.

		A drainer holds one lock for many runs, so the time limit counts from the start of each run.
		The previous run's key is deleted with the next write to the cache (the next run's key, or the
		release): only Started runs are asked whether they are alive, and the run has ended.
		"""
		if self._alive_key and self.current_run != run_name:
			self._ended_alive_key = self._alive_key
		if run_name and run_name != self.current_run:
			self._busy_since = time.monotonic()
		self.current_run = run_name
		# computed here: the heartbeat thread has no site context to build keys in
		self._alive_key = _key("run_alive", run_name) if run_name else None
		if self._alive_key:
			pipe = self.cache.pipeline(transaction=False)
			self._delete_ended_alive_key(pipe)
			pipe.set(self._alive_key, str(os.getpid()), ex=LOCK_TTL)
			pipe.execute()

	def _delete_ended_alive_key(self, pipe) -> None:
		if self._ended_alive_key:
			pipe.delete(self._ended_alive_key)
			self._ended_alive_key = None

	def __enter__(self) -> ConversationLock:
		return self

	def __exit__(self, *exc) -> None:
		self.release()

	def beat(self) -> bool:
		"""Extend the lock and the current run's liveness (called by the heartbeat thread); False when
		the lock is lost: taken over after it expired, or held by a run longer than its time limit."""
		if time.monotonic() - self._busy_since > self._max_seconds:
			self.lost = True  # hung: let the lock expire so the conversation can move on
			return False
		if self.cache.get(self.key) != self.token:
			self.lost = True
			return False
		# extend, never rewrite: a lock that expired and was taken meanwhile stays its new holder's
		extending_at = time.monotonic()
		if self.cache.expire(self.key, LOCK_TTL):
			self._extended_at = extending_at
		alive_key = self._alive_key
		if alive_key:
			self.cache.expire(alive_key, LOCK_TTL)
		return True


def is_locked(conversation: str) -> bool:
	return frappe.cache().get(_key("run_lock", conversation)) is not None


def is_run_alive(run_name: str) -> bool:
	"""Whether a live process is executing the run."""
	return frappe.cache().get(_key("run_alive", run_name)) is not None


def run_owner(run_name: str) -> int | None:
	"""The process id of the process executing the run (None when no live process does)."""
	return cint(frappe.cache().get(_key("run_alive", run_name))) or None


def claim_run(run_name: str) -> None:
	"""(Re)mark the run as waited for by its inline caller; call at least every CLAIM_TTL/2 seconds."""
	key = _key("run_claim", run_name)
	frappe.cache().set(key, b"1", ex=CLAIM_TTL)
	_claimed_at()[key] = time.monotonic()


def keep_claimed(run_name: str) -> None:
	"""`claim_run`, unless this request (or job) claimed the run less than CLAIM_TTL/4 seconds ago."""
	claimed = _claimed_at().get(_key("run_claim", run_name))
	if claimed is None or time.monotonic() - claimed > CLAIM_TTL / 4:
		claim_run(run_name)


def unclaim_run(run_name: str) -> None:
	frappe.cache().delete(_forget_claim(run_name))


def _forget_claim(run_name: str) -> bytes:
	"""The run's claim key, no longer remembered as claimed by this request (or job)."""
	key = _key("run_claim", run_name)
	_claimed_at().pop(key, None)
	return key


def _claimed_at() -> dict[bytes, float]:
	"""When this request (or job) last claimed each run it waits for."""
	claims = getattr(frappe.local, "huf_run_claims", None)
	if claims is None:
		claims = frappe.local.huf_run_claims = {}
	return claims


def is_claimed(run_name: str) -> bool:
	return frappe.cache().get(_key("run_claim", run_name)) is not None


def mark_drain_pending(conversation: str) -> bool:
	"""Note that a drainer is enqueued for the conversation; False when one already waits to start."""
	return bool(frappe.cache().set(_key("drain_pending", conversation), b"1", nx=True, ex=DRAIN_PENDING_TTL))


def clear_drain_pending(conversation: str) -> None:
	"""Called by the drainer as it starts: runs committed from now on need another drainer."""
	frappe.cache().delete(_key("drain_pending", conversation))


def mark_cancelled(run_name: str) -> None:
	"""Tell the process executing the run that it was cancelled (its status is committed already)."""
	frappe.cache().set(_key("run_cancelled", run_name), b"1", ex=max_run_seconds() + LOCK_TTL)


def is_cancelled(run_name: str) -> bool:
	"""Whether the run was cancelled while it ran (the database's status is the truth; this is its signal)."""
	return frappe.cache().get(_key("run_cancelled", run_name)) is not None


def inline_wait_seconds() -> int:
	"""How long an inline caller (`run_now`, a stream) waits for the conversation's earlier runs before
	its run is left to the drainer (site config `huf_run_wait_seconds`, default 900)."""
	return cint(frappe.conf.get("huf_run_wait_seconds")) or 900
