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
from frappe.utils.redis_wrapper import _ignore_connection_error


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
		with _ignore_connection_error():
			getattr(client, command)(*args)
	else:
		held.append((client, command, args))


def _send(held: list[tuple[Any, str, tuple]]) -> None:
	"""One pipeline per Redis server; an unreachable one is skipped, as Frappe's cache and realtime do."""
	pipes: dict[int, Any] = {}
	for client, command, args in held:
		pipe = pipes.get(id(client))
		if pipe is None:
			pipe = pipes[id(client)] = client.pipeline(transaction=False)
		getattr(pipe, command)(*args)
	for pipe in pipes.values():
		with _ignore_connection_error():
			pipe.execute()
