"""The store behind `frappe.cache` without Redis: an in-process, thread-safe subset of Redis (per bench).

`get_site_cache()` gives the current site's `frappe.utils.redis_wrapper.RedisWrapper`, over Redis when the
site config names `redis_cache`, else over this process's `MemoryStore`.
"""

from __future__ import annotations

import fnmatch
import os
import threading
import time
import uuid
from typing import Any

import frappe
from frappe.utils.redis_wrapper import RedisWrapper

_backends: dict[str, Any] = {}
_backends_lock = threading.Lock()


def get_site_cache() -> RedisWrapper:
	"""The cache of the current site (`frappe.cache()`)."""
	local = frappe.local
	conf = getattr(local, "conf", None)
	cached = getattr(local, "_site_cache", None)
	if cached is not None and conf is not None and cached[0] is conf and cached[1] == conf.get("redis_cache"):
		return cached[2]
	if conf is None:
		conf = frappe._dict(frappe.get_site_config())
	site = getattr(local, "site", None) or ""
	sites_path = getattr(local, "sites_path", None) or "."
	namespace = conf.get("db_name") or site
	site_cache = RedisWrapper(get_backend(conf.get("redis_cache"), sites_path), namespace)
	if getattr(local, "conf", None) is conf:
		local._site_cache = (conf, conf.get("redis_cache"), site_cache)
	return site_cache


def get_backend(redis_url: str | None = None, sites_path: str | None = None):
	"""A Redis client for `redis_url`, else the in-process store shared by the sites of `sites_path`."""
	key = redis_url or "memory:" + os.path.abspath(sites_path or ".")
	backend = _backends.get(key)
	if backend is None:
		with _backends_lock:
			backend = _backends.get(key)
			if backend is None:
				if redis_url:
					import redis

					backend = redis.Redis.from_url(redis_url)
				else:
					backend = MemoryStore()
				_backends[key] = backend
	return backend


def _encode(value: Any) -> bytes:
	"""Redis' encoding of a stored value."""
	if isinstance(value, bytes):
		return value
	if isinstance(value, str):
		return value.encode()
	if isinstance(value, bool):
		raise TypeError("Invalid input of type: 'bool'. Convert to a bytes, string, int or float first.")
	if isinstance(value, int | float):
		return repr(value).encode()
	raise TypeError(
		f"Invalid input of type: '{type(value).__name__}'. Convert to a bytes, string, int or float first."
	)


def _key(key: str | bytes) -> bytes:
	return key if isinstance(key, bytes) else str(key).encode()


class MemoryStore:
	"""The subset of Redis commands Frappe's cache uses, in process memory (bytes in, bytes out)."""

	def __init__(self):
		self._data: dict[bytes, Any] = {}
		self._expiry: dict[bytes, float] = {}
		self._lock = threading.RLock()
		self.changed = threading.Condition(self._lock)

	# -- keyspace --------------------------------------------------------------------------

	def _alive(self, key: bytes) -> bool:
		deadline = self._expiry.get(key)
		if deadline is not None and deadline <= time.monotonic():
			self._data.pop(key, None)
			self._expiry.pop(key, None)
			return False
		return key in self._data

	def _get(self, key, kind: type, create: bool = False):
		key = _key(key)
		if not self._alive(key):
			if not create:
				return None
			self._data[key] = kind()
		value = self._data[key]
		if not isinstance(value, kind):
			raise TypeError("WRONGTYPE Operation against a key holding the wrong kind of value")
		return value

	def _drop_if_empty(self, key) -> None:
		key = _key(key)
		if key in self._data and not self._data[key] and not isinstance(self._data[key], bytes):
			self._data.pop(key, None)
			self._expiry.pop(key, None)

	def ping(self) -> bool:
		return True

	def get(self, name) -> bytes | None:
		with self._lock:
			return self._get(name, bytes)

	def set(
		self, name, value, ex: float | None = None, px: float | None = None, nx: bool = False, **kwargs
	) -> bool | None:
		name = _key(name)
		with self._lock:
			if nx and self._alive(name):
				return None
			self._data[name] = _encode(value)
			self._expiry.pop(name, None)
			if ex or px:
				self._expiry[name] = time.monotonic() + (float(ex) if ex else float(px) / 1000)
			self.changed.notify_all()
			return True

	def setex(self, name, time_: float, value) -> bool:
		return self.set(name, value, ex=time_)

	def delete(self, *names) -> int:
		with self._lock:
			count = 0
			for name in names:
				name = _key(name)
				if self._alive(name):
					count += 1
				self._data.pop(name, None)
				self._expiry.pop(name, None)
			self.changed.notify_all()
			return count

	def exists(self, *names) -> int:
		with self._lock:
			return sum(1 for name in names if self._alive(_key(name)))

	def keys(self, pattern: str | bytes = "*") -> list[bytes]:
		pattern = pattern.decode() if isinstance(pattern, bytes) else pattern
		with self._lock:
			return [
				k for k in list(self._data) if self._alive(k) and fnmatch.fnmatchcase(k.decode(), pattern)
			]

	def expire(self, name, time_: float) -> bool:
		name = _key(name)
		with self._lock:
			if not self._alive(name):
				return False
			self._expiry[name] = time.monotonic() + float(time_)
			return True

	def ttl(self, name) -> int:
		name = _key(name)
		with self._lock:
			if not self._alive(name):
				return -2
			deadline = self._expiry.get(name)
			return -1 if deadline is None else max(0, round(deadline - time.monotonic()))

	def persist(self, name) -> bool:
		with self._lock:
			return self._expiry.pop(_key(name), None) is not None

	def flushall(self) -> bool:
		with self._lock:
			self._data.clear()
			self._expiry.clear()
			return True

	def incrby(self, name, amount: int = 1) -> int:
		name = _key(name)
		with self._lock:
			current = self._get(name, bytes)
			value = int(current or 0) + int(amount)
			self._data[name] = str(value).encode()
			return value

	def incr(self, name, amount: int = 1) -> int:
		return self.incrby(name, amount)

	def decrby(self, name, amount: int = 1) -> int:
		return self.incrby(name, -amount)

	# -- hashes ----------------------------------------------------------------------------

	def hset(self, name, key=None, value=None, mapping: dict | None = None, **kwargs) -> int:
		with self._lock:
			h = self._get(name, dict, create=True)
			items = dict(mapping or {})
			if key is not None:
				items[key] = value
			added = 0
			for k, v in items.items():
				k = _key(k)
				added += k not in h
				h[k] = _encode(v)
			return added

	def hget(self, name, key) -> bytes | None:
		with self._lock:
			return (self._get(name, dict) or {}).get(_key(key))

	def hgetall(self, name) -> dict[bytes, bytes]:
		with self._lock:
			return dict(self._get(name, dict) or {})

	def hkeys(self, name) -> list[bytes]:
		with self._lock:
			return list(self._get(name, dict) or {})

	def hexists(self, name, key) -> bool:
		with self._lock:
			return _key(key) in (self._get(name, dict) or {})

	def hdel(self, name, *keys) -> int:
		with self._lock:
			h = self._get(name, dict) or {}
			count = sum(1 for k in keys if h.pop(_key(k), None) is not None)
			self._drop_if_empty(name)
			return count

	# -- sets ------------------------------------------------------------------------------

	def sadd(self, name, *values) -> int:
		with self._lock:
			s = self._get(name, set, create=True)
			before = len(s)
			s.update(_encode(v) for v in values)
			return len(s) - before

	def srem(self, name, *values) -> int:
		with self._lock:
			s = self._get(name, set) or set()
			before = len(s)
			s.difference_update(_encode(v) for v in values)
			self._drop_if_empty(name)
			return before - len(s)

	def smembers(self, name) -> set[bytes]:
		with self._lock:
			return set(self._get(name, set) or ())

	def sismember(self, name, value) -> bool:
		with self._lock:
			return _encode(value) in (self._get(name, set) or ())

	def scard(self, name) -> int:
		with self._lock:
			return len(self._get(name, set) or ())

	def spop(self, name) -> bytes | None:
		with self._lock:
			s = self._get(name, set)
			if not s:
				return None
			value = s.pop()
			self._drop_if_empty(name)
			return value

	def srandmember(self, name) -> bytes | None:
		with self._lock:
			s = self._get(name, set)
			return next(iter(s)) if s else None

	# -- lists -----------------------------------------------------------------------------

	def lpush(self, name, *values) -> int:
		with self._lock:
			lst = self._get(name, list, create=True)
			for v in values:
				lst.insert(0, _encode(v))
			return len(lst)

	def rpush(self, name, *values) -> int:
		with self._lock:
			lst = self._get(name, list, create=True)
			lst.extend(_encode(v) for v in values)
			return len(lst)

	def lpop(self, name) -> bytes | None:
		with self._lock:
			lst = self._get(name, list)
			value = lst.pop(0) if lst else None
			self._drop_if_empty(name)
			return value

	def rpop(self, name) -> bytes | None:
		with self._lock:
			lst = self._get(name, list)
			value = lst.pop() if lst else None
			self._drop_if_empty(name)
			return value

	def llen(self, name) -> int:
		with self._lock:
			return len(self._get(name, list) or ())

	def lrange(self, name, start: int, end: int) -> list[bytes]:
		with self._lock:
			lst = self._get(name, list) or []
			return lst[_slice(start, end, len(lst))]

	def ltrim(self, name, start: int, end: int) -> bool:
		with self._lock:
			lst = self._get(name, list)
			if lst is not None:
				lst[:] = lst[_slice(start, end, len(lst))]
				self._drop_if_empty(name)
			return True

	# -- sorted sets (members are bytes, scores floats) ------------------------------------

	def zadd(self, name, mapping: dict, **kwargs) -> int:
		with self._lock:
			zset = self._get(name, dict, create=True)
			added = 0
			for member, score in mapping.items():
				member = _encode(member)
				added += member not in zset
				zset[member] = float(score)
			return added

	def zrem(self, name, *values) -> int:
		with self._lock:
			zset = self._get(name, dict) or {}
			removed = sum(1 for v in values if zset.pop(_encode(v), None) is not None)
			self._drop_if_empty(name)
			return removed

	def zcard(self, name) -> int:
		with self._lock:
			return len(self._get(name, dict) or ())

	def zremrangebyscore(self, name, min, max) -> int:  # noqa: A002 - Redis' names
		low, high = _score_bound(min), _score_bound(max)
		with self._lock:
			zset = self._get(name, dict) or {}
			gone = [m for m, score in zset.items() if low(score, True) and high(score, False)]
			for member in gone:
				del zset[member]
			self._drop_if_empty(name)
			return len(gone)

	def zrange(self, name, start: int, end: int, desc: bool = False, withscores: bool = False, **kwargs):
		with self._lock:
			ordered = sorted((self._get(name, dict) or {}).items(), key=lambda item: (item[1], item[0]))
			if desc:
				ordered.reverse()
			chosen = ordered[_slice(start, end, len(ordered))]
			return list(chosen) if withscores else [member for member, _score in chosen]

	def pipeline(self, transaction: bool = True, **kwargs) -> MemoryPipeline:
		return MemoryPipeline(self)

	# -- locks ----------------------------------------------------------------------------

	def lock(
		self,
		name,
		timeout: float | None = None,
		sleep: float = 0.1,
		blocking: bool = True,
		blocking_timeout: float | None = None,
		**kwargs,
	) -> MemoryLock:
		return MemoryLock(
			self, name, timeout=timeout, sleep=sleep, blocking=blocking, blocking_timeout=blocking_timeout
		)


def _score_bound(bound):
	"""A test `(score, is_min) -> bool` for a Redis score bound: a number, "-inf"/"+inf", "(x" exclusive."""
	text = bound.decode() if isinstance(bound, bytes) else str(bound)
	exclusive = text.startswith("(")
	value = float(text[1:] if exclusive else text)
	if exclusive:
		return lambda score, is_min: score > value if is_min else score < value
	return lambda score, is_min: score >= value if is_min else score <= value


class MemoryPipeline:
	"""`pipeline()` of the in-process store: commands are queued and `execute()` runs them as one step."""

	def __init__(self, store: MemoryStore):
		self._store = store
		self._commands: list[tuple[str, tuple, dict]] = []

	def __getattr__(self, name: str):
		getattr(self._store, name)  # AttributeError for a command the store lacks

		def queue(*args, **kwargs) -> MemoryPipeline:
			self._commands.append((name, args, kwargs))
			return self

		return queue

	def __enter__(self) -> MemoryPipeline:
		return self

	def __exit__(self, *exc) -> None:
		self._commands = []

	def __len__(self) -> int:
		return len(self._commands)

	def execute(self, raise_on_error: bool = True) -> list:
		"""Run the queued commands atomically (no other thread sees a state in between); their results."""
		commands, self._commands = self._commands, []
		with self._store._lock:
			return [getattr(self._store, name)(*args, **kwargs) for name, args, kwargs in commands]


def _slice(start: int, end: int, length: int) -> slice:
	"""Redis' inclusive [start, end] range (negative indexes count from the end)."""
	if start < 0:
		start = max(0, length + start)
	end = length + end if end < 0 else end
	return slice(start, end + 1)


class MemoryLock:
	"""A lock with the interface of redis-py's `Lock`, kept in a `MemoryStore` key (expires after `timeout`)."""

	def __init__(
		self,
		store: MemoryStore,
		name,
		timeout: float | None = None,
		sleep: float = 0.1,
		blocking: bool = True,
		blocking_timeout: float | None = None,
	):
		self.store, self.name = store, _key(name)
		self.timeout, self.sleep = timeout, sleep
		self.blocking, self.blocking_timeout = blocking, blocking_timeout
		self._local = threading.local()

	@property
	def token(self) -> bytes | None:
		return getattr(self._local, "token", None)

	def __enter__(self) -> MemoryLock:
		if self.acquire():
			return self
		from redis.exceptions import LockError

		raise LockError("Unable to acquire lock within the time specified", lock_name=self.name.decode())

	def __exit__(self, exc_type, exc, tb) -> None:
		self.release()

	def acquire(
		self,
		sleep: float | None = None,
		blocking: bool | None = None,
		blocking_timeout: float | None = None,
		token: str | bytes | None = None,
	) -> bool:
		"""Take the lock; wait up to `blocking_timeout` seconds (forever if None) when blocking."""
		sleep = self.sleep if sleep is None else sleep
		blocking = self.blocking if blocking is None else blocking
		blocking_timeout = self.blocking_timeout if blocking_timeout is None else blocking_timeout
		token = _key(token) if token is not None else uuid.uuid4().hex.encode()
		deadline = None if blocking_timeout is None else time.monotonic() + blocking_timeout
		with self.store.changed:
			while True:
				if self.store.set(self.name, token, nx=True, ex=self.timeout):
					self._local.token = token
					return True
				if not blocking:
					return False
				wait = sleep or 0.1
				if deadline is not None:
					remaining = deadline - time.monotonic()
					if remaining <= 0:
						return False
					wait = min(wait, remaining)
				self.store.changed.wait(wait)

	def locked(self) -> bool:
		return bool(self.store.exists(self.name))

	def owned(self) -> bool:
		return self.token is not None and self.store.get(self.name) == self.token

	def release(self) -> None:
		from redis.exceptions import LockError, LockNotOwnedError

		token = self.token
		if token is None:
			raise LockError("Cannot release an unlocked lock", lock_name=self.name.decode())
		self._local.token = None
		with self.store.changed:
			if self.store.get(self.name) != token:
				raise LockNotOwnedError(
					"Cannot release a lock that's no longer owned", lock_name=self.name.decode()
				)
			self.store.delete(self.name)

	def extend(self, additional_time: float, replace_ttl: bool = False) -> bool:
		from redis.exceptions import LockNotOwnedError

		with self.store.changed:
			if not self.owned():
				raise LockNotOwnedError(
					"Cannot extend a lock that's no longer owned", lock_name=self.name.decode()
				)
			ttl = 0 if replace_ttl else max(self.store.ttl(self.name), 0)
			return self.store.expire(self.name, ttl + additional_time)
