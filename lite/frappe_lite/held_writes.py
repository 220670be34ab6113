"""Redis writes held while a transaction's after-commit (or after-rollback) callbacks run, then sent together.

Frappe sends each of them on its own: per changed document a DEL of its cache key (`clear_document_cache`
at commit) and per realtime event a PUBLISH. Frappe Lite holds the ones made inside `holding()` and sends
them in one pipeline per Redis server when the callbacks are done: same commands, same order, one round
trip. Only fire-and-forget writes are held; a read never waits for them (see
`RedisWrapper._forget_at_transaction_end` for the cache keys a transaction changed).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import frappe


@contextmanager
def holding() -> Iterator[None]:
	"""Hold the writes made through `send` inside, and send them at the end (also on error)."""
	outer = getattr(frappe.local, "_held_redis_writes", None)
	if outer:
		_send(outer)  # a commit inside a callback: what the outer callbacks wrote goes out first
		outer.clear()
	held: list[tuple[Any, str, tuple]] = []
	frappe.local._held_redis_writes = held
	try:
		yield
	finally:
		frappe.local._held_redis_writes = outer
		_send(held)


def send(client: Any, command: str, *args: Any) -> None:
	"""Run the Redis `command` now, or hold it until the callbacks being run are done."""
	held = getattr(frappe.local, "_held_redis_writes", None)
	if held is None:
		_ignoring_connection_errors(getattr(client, command), *args)
	else:
		held.append((client, command, args))


def _send(held: list[tuple[Any, str, tuple]]) -> None:
	clients: dict[int, tuple[Any, list]] = {}
	for client, command, args in held:
		clients.setdefault(id(client), (client, []))[1].append((command, args))
	for client, commands in clients.values():
		if len(commands) == 1:
			command, args = commands[0]
			_ignoring_connection_errors(getattr(client, command), *args)
			continue
		pipe = client.pipeline(transaction=False)
		for command, args in commands:
			getattr(pipe, command)(*args)
		_ignoring_connection_errors(pipe.execute)


def _ignoring_connection_errors(function, *args) -> None:
	"""Realtime events and cache deletions are best effort when Redis is unreachable, as in Frappe."""
	try:
		function(*args)
	except Exception as exc:
		if not _is_connection_error(exc):
			raise


def _is_connection_error(exc: Exception) -> bool:
	try:
		from redis.exceptions import ConnectionError as RedisConnectionError
	except ImportError:
		return False
	return isinstance(exc, RedisConnectionError)
