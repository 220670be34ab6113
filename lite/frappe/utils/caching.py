"""Caching decorators: `request_cache`, `site_cache`, `redis_cache` (as Frappe's `frappe.utils.caching`)."""

from __future__ import annotations

import functools
import hashlib
import pickle
import threading
import time
from collections.abc import Callable
from typing import Any

import frappe

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
