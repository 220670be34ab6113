"""`frappe.cache`: Frappe's RedisWrapper API over an in-process store, or over Redis (`redis_cache`).

Keys are namespaced per site (`<db_name>|<key>`) and values are pickled, as in Frappe, so code
behaves the same with either backend. The in-process store is one per bench (sites path), thread
safe, with expiry; its locks work across threads, Redis locks across processes.
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import os
import pickle
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

import frappe

_backends: dict[str, Any] = {}
_backends_lock = threading.Lock()


def get_site_cache() -> SiteCache:
	"""The cache of the current site (`frappe.cache()`)."""
	local = frappe.local
	conf = getattr(local, "conf", None)
	cached = getattr(local, "_site_cache", None)
	if cached is not None and conf is not None and cached[0] is conf and cached[1] == conf.get("redis_cache"):
		return cached[2]
	if conf is None:
		conf = frappe._dict(frappe.get_site_config())
	site = getattr(local, "site", None) or ""
	sites_path = getattr(local, "sites_path", None) or frappe.get_sites_path()
	namespace = conf.get("db_name") or site
	site_cache = SiteCache(get_backend(conf.get("redis_cache"), sites_path), namespace)
	if getattr(local, "conf", None) is conf:
		local._site_cache = (conf, conf.get("redis_cache"), site_cache)
	return site_cache


def get_backend(redis_url: str | None = None, sites_path: str | None = None):
	"""A Redis client for `redis_url`, else the in-process store shared by the sites of `sites_path`."""
	key = redis_url or "memory:" + os.path.abspath(sites_path or frappe.get_sites_path())
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


class SiteCache:
	"""Frappe's cache API for one site: keys prefixed with the site's namespace, values pickled."""

	def __init__(self, client, namespace: str):
		self.client = client
		self.namespace = namespace

	@property
	def is_redis(self) -> bool:
		return not isinstance(self.client, MemoryStore)

	def __getattr__(self, name: str):
		# raw commands (get, set, publish, pipeline...) go to the backend unprefixed, as on RedisWrapper
		return getattr(self.client, name)

	def __repr__(self) -> str:
		return f"<SiteCache {self.namespace!r} on {type(self.client).__name__}>"

	def connected(self) -> bool:
		try:
			return bool(self.client.ping())
		except Exception:
			return False

	def make_key(self, key: str | bytes, user: str | bool | None = None, shared: bool = False) -> bytes:
		"""`<namespace>|<key>` (or `<namespace>|user:<user>:<key>`); shared keys are left alone."""
		if isinstance(key, bytes):
			key = key.decode()
		if shared:
			return key.encode()
		if user:
			if user is True:
				user = frappe.session.user
			key = f"user:{user}:{key}"
		return f"{self.namespace}|{key}".encode()

	# -- values ----------------------------------------------------------------------------

	def set_value(
		self,
		key: str,
		val: Any,
		user: str | bool | None = None,
		expires_in_sec: float | None = None,
		shared: bool = False,
	) -> None:
		"""Store `val` (pickled); it disappears after `expires_in_sec` seconds when given."""
		name = self.make_key(key, user, shared)
		data = pickle.dumps(val)
		with _ignore_connection_error():
			if expires_in_sec:
				self.client.set(name, data, ex=_seconds(expires_in_sec))
			else:
				self.client.set(name, data)

	def get_value(
		self,
		key: str,
		generator: Callable | None = None,
		user: str | bool | None = None,
		expires: bool = False,
		shared: bool = False,
	) -> Any:
		"""The stored value, or None; with `generator`, compute, store and return a missing value."""
		val = None
		with _ignore_connection_error():
			raw = self.client.get(self.make_key(key, user, shared))
			if raw is not None:
				val = pickle.loads(raw)
		if val is None and generator and not expires:
			val = generator()
			self.set_value(key, val, user=user, shared=shared)
		return val

	def get_all(self, key: str) -> dict:
		"""{key: value} of every key starting with `key`."""
		prefix = self.make_key("").decode()
		return {
			k.decode().removeprefix(prefix): self.get_value(k.decode().removeprefix(prefix))
			for k in self.get_keys(key)
		}

	def get_keys(self, key: str) -> list[bytes]:
		"""Full (prefixed) keys starting with `key`."""
		with _ignore_connection_error():
			return self.client.keys(self.make_key(key + "*"))
		return []

	def delete_keys(self, key: str) -> None:
		"""Delete every key starting with `key`."""
		self.delete_value(self.get_keys(key), make_keys=False)

	def delete_key(self, *args, **kwargs) -> None:
		self.delete_value(*args, **kwargs)

	def delete_value(
		self,
		keys: str | bytes | Iterable,
		user: str | bool | None = None,
		make_keys: bool = True,
		shared: bool = False,
	) -> None:
		"""Delete one key or a list of keys."""
		if not keys:
			return
		if isinstance(keys, str | bytes):
			keys = (keys,)
		names = [self.make_key(k, user=user, shared=shared) if make_keys else k for k in keys]
		with _ignore_connection_error():
			if names:
				self.client.delete(*names)

	def exists(self, *names: str, user: str | bool | None = None, shared: bool = False) -> int:
		"""How many of `names` exist."""
		return self.client.exists(*(self.make_key(n, user=user, shared=shared) for n in names))

	def expire(self, key: str, seconds: float, user: str | bool | None = None, shared: bool = False) -> bool:
		return self.client.expire(self.make_key(key, user=user, shared=shared), _seconds(seconds))

	def ttl(self, key: str, user: str | bool | None = None, shared: bool = False) -> int:
		return self.client.ttl(self.make_key(key, user=user, shared=shared))

	def incrby(self, key: str, amount: int = 1, user: str | bool | None = None, shared: bool = False) -> int:
		return self.client.incrby(self.make_key(key, user=user, shared=shared), amount)

	def incr(self, key: str, amount: int = 1) -> int:
		return self.incrby(key, amount)

	# -- hashes ----------------------------------------------------------------------------

	def hset(self, name: str, key: str, value: Any, shared: bool = False, *args, **kwargs) -> None:
		with _ignore_connection_error():
			self.client.hset(self.make_key(name, shared=shared), key, pickle.dumps(value))

	def hget(self, name: str, key: str, generator: Callable | None = None, shared: bool = False) -> Any:
		value = None
		with _ignore_connection_error():
			raw = self.client.hget(self.make_key(name, shared=shared), key)
			if raw is not None:
				value = pickle.loads(raw)
		if value is None and generator:
			value = generator()
			self.hset(name, key, value, shared=shared)
		return value

	def hgetall(self, name: str) -> dict:
		"""{field (bytes, as Frappe returns them): value}."""
		return {k: pickle.loads(v) for k, v in self.client.hgetall(self.make_key(name)).items()}

	def hkeys(self, name: str) -> list:
		return self.client.hkeys(self.make_key(name))

	def hexists(self, name: str, key: str, shared: bool = False) -> bool:
		return bool(self.client.hexists(self.make_key(name, shared=shared), key))

	def hdel(self, name: str, keys: str | list | tuple, shared: bool = False) -> None:
		if isinstance(keys, str | bytes):
			keys = (keys,)
		if keys:
			with _ignore_connection_error():
				self.client.hdel(self.make_key(name, shared=shared), *keys)

	def hdel_keys(self, name_starts_with: str, key: str) -> None:
		"""Delete field `key` from every hash whose name starts with `name_starts_with`."""
		for name in self.get_keys(name_starts_with):
			self.hdel(name.decode().split("|", 1)[1], key)

	# -- sets and lists --------------------------------------------------------------------

	def sadd(self, name: str, *values) -> int:
		return self.client.sadd(self.make_key(name), *values)

	def srem(self, name: str, *values) -> int:
		return self.client.srem(self.make_key(name), *values)

	def sismember(self, name: str, value) -> bool:
		return bool(self.client.sismember(self.make_key(name), value))

	def spop(self, name: str):
		return self.client.spop(self.make_key(name))

	def srandmember(self, name: str, count: int | None = None):
		return self.client.srandmember(self.make_key(name))

	def smembers(self, name: str) -> set:
		return self.client.smembers(self.make_key(name))

	def scard(self, name: str) -> int:
		return self.client.scard(self.make_key(name))

	def lpush(self, key: str, *values) -> int:
		return self.client.lpush(self.make_key(key), *values)

	def rpush(self, key: str, *values) -> int:
		return self.client.rpush(self.make_key(key), *values)

	def lpop(self, key: str):
		return self.client.lpop(self.make_key(key))

	def rpop(self, key: str):
		return self.client.rpop(self.make_key(key))

	def llen(self, key: str) -> int:
		return self.client.llen(self.make_key(key))

	def lrange(self, key: str, start: int, end: int) -> list:
		return self.client.lrange(self.make_key(key), start, end)

	def ltrim(self, key: str, start: int, end: int):
		return self.client.ltrim(self.make_key(key), start, end)

	# -- locks -----------------------------------------------------------------------------

	def lock(
		self,
		name: str,
		timeout: float | None = None,
		sleep: float = 0.1,
		blocking: bool = True,
		blocking_timeout: float | None = None,
		**kwargs,
	):
		"""A lock shared by every thread (in-process) or every process (Redis) of this site.

		Use as `with frappe.cache().lock("name", timeout=30, blocking_timeout=5):`; raises redis'
		`LockError` when it cannot be acquired in time; it expires after `timeout` seconds.
		"""
		return self.client.lock(
			self.make_key(name),
			timeout=timeout,
			sleep=sleep,
			blocking=blocking,
			blocking_timeout=blocking_timeout,
			**kwargs,
		)


def _seconds(value: float) -> int | float:
	value = float(value)
	return int(value) if value.is_integer() else value


class _ignore_connection_error:
	"""Treat an unreachable Redis as an empty cache, as Frappe's RedisWrapper does for values."""

	def __enter__(self):
		return self

	def __exit__(self, exc_type, exc, tb) -> bool:
		if exc_type is None:
			return False
		try:
			from redis.exceptions import ConnectionError as RedisConnectionError
		except ImportError:
			return False
		return issubclass(exc_type, RedisConnectionError)


# ---------------------------------------------------------------------------------------------
# decorators (frappe.utils.caching)


def _args_key(func: Callable, args: tuple, kwargs: dict) -> str:
	text = repr((args, sorted(kwargs.items())))
	return hashlib.sha256(text.encode()).hexdigest()


def _func_name(func: Callable) -> str:
	return f"{func.__module__}.{func.__qualname__}"


def request_cache(func: Callable) -> Callable:
	"""Cache the result per arguments for the current request / context only."""

	@functools.wraps(func)
	def wrapper(*args, **kwargs):
		store = getattr(frappe.local, "request_cache", None)
		if store is None:
			try:
				frappe.local.request_cache = store = {}
			except Exception:
				return func(*args, **kwargs)
		cache_ = store.setdefault(func, {})
		key = _args_key(func, args, kwargs)
		if key not in cache_:
			cache_[key] = func(*args, **kwargs)
		return cache_[key]

	return wrapper


def site_cache(ttl: int | None = None, maxsize: int | None = None) -> Callable:
	"""Cache the result per site and arguments in this process (for `ttl` seconds when given)."""

	def decorator(func: Callable) -> Callable:
		store: dict[tuple, tuple[float | None, Any]] = {}
		lock = threading.Lock()

		@functools.wraps(func)
		def wrapper(*args, **kwargs):
			key = (getattr(frappe.local, "site", None), _args_key(func, args, kwargs))
			now = time.monotonic()
			with lock:
				hit = store.get(key)
			if hit and (hit[0] is None or hit[0] > now):
				return hit[1]
			value = func(*args, **kwargs)
			with lock:
				if maxsize and len(store) >= maxsize:
					store.pop(next(iter(store)))
				store[key] = (now + ttl if ttl else None, value)
			return value

		def clear_cache() -> None:
			with lock:
				store.clear()

		wrapper.clear_cache = clear_cache
		return wrapper

	return decorator(ttl) if callable(ttl) else decorator


def redis_cache(ttl: int | None = 3600, user: str | bool | None = None, shared: bool = False) -> Callable:
	"""Cache the result per arguments in `frappe.cache` for `ttl` seconds."""

	def decorator(func: Callable) -> Callable:
		prefix = _func_name(func)

		@functools.wraps(func)
		def wrapper(*args, **kwargs):
			key = f"{prefix}.{_args_key(func, args, kwargs)}"
			cache_ = frappe.cache()
			name = cache_.make_key(key, user=user, shared=shared)
			raw = cache_.client.get(name)
			if raw is not None:
				return pickle.loads(raw)
			value = func(*args, **kwargs)
			cache_.set_value(key, value, user=user, expires_in_sec=ttl, shared=shared)
			return value

		def clear_cache() -> None:
			frappe.cache().delete_keys(prefix)

		wrapper.clear_cache = clear_cache
		return wrapper

	return decorator(ttl) if callable(ttl) else decorator
