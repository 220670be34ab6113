"""`frappe.cache`: Frappe's RedisWrapper API over Redis (`redis_cache`) or Frappe Lite's in-process store.

Keys are namespaced per site (`<db_name>|<key>`) and values are pickled, as in Frappe, so code
behaves the same with either backend.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable
from typing import Any

import frappe


class RedisWrapper:
	"""Frappe's cache API for one site: keys prefixed with the site's namespace, values pickled."""

	def __init__(self, client, namespace: str):
		self.client = client
		self.namespace = namespace

	def __getattr__(self, name: str):
		# raw commands (get, set, publish, pipeline, lock...) go to the backend unprefixed, as on
		# RedisWrapper (a redis.Redis): `lock(name)` locks `name` as given, for every site of the server
		return getattr(self.client, name)

	def __repr__(self) -> str:
		return f"<RedisWrapper {self.namespace!r} on {type(self.client).__name__}>"

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
		local_cache = _local_cache()
		if local_cache is not None:
			local_cache[name] = val
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
		*,
		use_local_cache: bool = True,
	) -> Any:
		"""The stored value, or None; with `generator`, compute, store and return a missing value.

		As in Frappe, a value read once is kept in `frappe.local.cache` for the rest of the request
		(or job), unless `expires` (a key with an expiry) or `use_local_cache=False`.
		"""
		name = self.make_key(key, user, shared)
		local_cache = _local_cache()
		if use_local_cache and local_cache is not None and name in local_cache:
			return local_cache[name]
		val = None
		if name not in _stale_keys():
			with _ignore_connection_error():
				raw = self.client.get(name)
				if raw is not None:
					val = pickle.loads(raw)
		if not expires:
			if val is None and generator:
				val = generator()
				self.set_value(key, val, user=user, shared=shared)
			elif local_cache is not None:
				local_cache[name] = val
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
		local_cache = _local_cache()
		if local_cache is not None:
			for name in names:
				local_cache.pop(name, None)
		with _ignore_connection_error():
			if names:
				self.client.delete(*names)

	def _forget_at_transaction_end(self, key: str) -> None:
		"""(Frappe Lite) Forget `key` for this transaction and delete it when the transaction ends.

		Frappe deletes a changed document's key at the change and again after the commit (a process that
		missed it in between may have cached what was still committed). Here this process stops reading it
		at the change and the commit (or rollback) deletes it, with every other key the transaction
		changed, in the round trip of its realtime events (`frappe_lite.held_writes`). Other processes see
		what they would see on Frappe: the committed value until the commit, nothing after it.
		"""
		db = frappe.local.db
		name = self.make_key(key)
		local_cache = _local_cache()
		if local_cache is not None:
			local_cache.pop(name, None)
		db._stale_cache_keys[name] = self.client

	def exists(self, *names: str, user: str | bool | None = None, shared: bool = False) -> int:
		"""How many of `names` exist."""
		return self.client.exists(*(self.make_key(n, user=user, shared=shared) for n in names))

	def expire_key(self, key: str, time: float, *, user: str | bool | None = None, shared: bool = False):
		"""Expire the site's `key` after `time` seconds (`expire` and `ttl` are Redis' raw commands)."""
		with _ignore_connection_error():
			return self.client.expire(self.make_key(key, user=user, shared=shared), _seconds(time))

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

	def lpush(self, key, value):
		return self.client.lpush(self.make_key(key), value)

	def rpush(self, key, value):
		return self.client.rpush(self.make_key(key), value)

	def lpop(self, key: str):
		return self.client.lpop(self.make_key(key))

	def rpop(self, key: str):
		return self.client.rpop(self.make_key(key))

	def llen(self, key: str) -> int:
		return self.client.llen(self.make_key(key))

	def lrange(self, key, start, stop):
		return self.client.lrange(self.make_key(key), start, stop)

	def ltrim(self, key, start, stop):
		return self.client.ltrim(self.make_key(key), start, stop)


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


def _delete_stale_keys(db) -> None:
	"""(Frappe Lite) At the end of `db`'s transaction: delete the keys it changed (see
	`RedisWrapper._forget_at_transaction_end`), held with the transaction's other after-commit writes
	(the commit and the rollback call this inside `frappe_lite.held_writes.holding`)."""
	from frappe_lite.held_writes import send

	stale = db._stale_cache_keys
	local_cache = _local_cache()
	for name, client in stale.items():
		if local_cache is not None:
			local_cache.pop(name, None)
		send(client, "delete", name)
	stale.clear()


def _stale_keys() -> dict:
	db = getattr(frappe.local, "db", None)
	return db._stale_cache_keys if db is not None else {}


def _local_cache() -> dict | None:
	"""This request's (or job's) copy of the values read or written, `frappe.local.cache`."""
	return getattr(frappe.local, "cache", None)
