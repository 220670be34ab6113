"""Realtime delivery without a socketio server: in-process subscribers per site, and Redis' `events` channel.

Subscribers register per site with `subscribe(site, callback)`; each event reaches them as a dict
{event, message, room, namespace (= site), site, user}. Events are also published on the channel "events"
as Frappe does for its socketio server: on Redis when `redis_queue` (where Frappe publishes them),
`redis_socketio` or `redis_cache` is configured, else on this process's `LocalConnection` (what
`frappe.utils.background_jobs.get_redis_connection_without_auth()` answers without Redis), so a reader of the
channel works the same on both.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
import traceback
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import frappe
from frappe.utils.data import cstr

_subscribers: dict[str, list[Callable[[dict], Any]]] = defaultdict(list)
_subscribers_lock = threading.Lock()
CHANNEL = "events"


def emit(event: str, message: Any, room: str, user: str | None = None) -> None:
	"""Deliver an event now: log it, call this site's subscribers, publish it to Redis if configured."""
	site = getattr(frappe.local, "site", None)
	payload = {
		"event": event,
		"message": message,
		"room": room,
		"namespace": site,
		"site": site,
		"user": user,
	}
	log = getattr(frappe.local, "realtime_log", None)
	if log is not None:
		log.append(payload)
	deliver(site, payload)
	_emit_via_redis(payload)
	if not (getattr(frappe.local, "conf", None) or {}).get("redis_queue"):
		LOCAL.publish(
			CHANNEL, json.dumps(payload, default=cstr)
		)  # read as get_redis_connection_without_auth()


def deliver(site: str | None, payload: dict) -> None:
	"""Call every subscriber of `site` with `payload`; a failing subscriber never breaks the publisher."""
	with _subscribers_lock:
		callbacks = list(_subscribers.get(site or "", ()))
	for callback in callbacks:
		try:
			callback(payload)
		except Exception:
			print(traceback.format_exc(), file=sys.stderr)


def _emit_via_redis(payload: dict) -> None:
	conf = getattr(frappe.local, "conf", None) or {}
	url = conf.get("redis_queue") or conf.get("redis_socketio") or conf.get("redis_cache")
	if not url:
		return
	try:
		from frappe_lite.cache import get_backend
		from frappe_lite.held_writes import send

		# inside a commit's callbacks: sent with the commit's other writes (frappe_lite.held_writes)
		send(get_backend(url), "publish", CHANNEL, json.dumps(payload, default=cstr))
	except Exception:
		pass  # realtime is best effort, as in Frappe


def subscribe(site: str, callback: Callable[[dict], Any]) -> Callable[[dict], Any]:
	"""Call `callback(payload)` for every event published on `site` in this process."""
	with _subscribers_lock:
		_subscribers[site].append(callback)
	return callback


def unsubscribe(site: str, callback: Callable[[dict], Any]) -> None:
	with _subscribers_lock:
		callbacks = _subscribers.get(site)
		if callbacks and callback in callbacks:
			callbacks.remove(callback)
		if not callbacks:
			_subscribers.pop(site, None)


class LocalConnection:
	"""Redis' `publish` and `pubsub()` for the channels of this process (used when no Redis is configured)."""

	def __init__(self) -> None:
		self._lock = threading.Lock()
		self._pubsubs: list[LocalPubSub] = []

	def publish(self, channel: str, data: str | bytes) -> int:
		with self._lock:
			readers = [p for p in self._pubsubs if channel in p.channels]
		for reader in readers:
			reader._put(channel, data)
		return len(readers)

	def pubsub(self, **kwargs: Any) -> LocalPubSub:
		reader = LocalPubSub(self)
		with self._lock:
			self._pubsubs.append(reader)
		return reader

	def _forget(self, reader: LocalPubSub) -> None:
		with self._lock:
			if reader in self._pubsubs:
				self._pubsubs.remove(reader)


class LocalPubSub:
	"""The part of redis-py's PubSub a reader of a channel uses: subscribe, get_message, close."""

	def __init__(self, connection: LocalConnection) -> None:
		self.connection = connection
		self.channels: set[str] = set()
		self._messages: queue.Queue = queue.Queue(maxsize=10000)

	def subscribe(self, *channels: str) -> None:
		for channel in channels:
			self.channels.add(channel)
			self._messages.put({"type": "subscribe", "pattern": None, "channel": channel.encode(), "data": 1})

	def unsubscribe(self, *channels: str) -> None:
		for channel in channels or tuple(self.channels):
			self.channels.discard(channel)

	def _put(self, channel: str, data: str | bytes) -> None:
		body = data.encode() if isinstance(data, str) else data
		try:
			self._messages.put_nowait(
				{"type": "message", "pattern": None, "channel": channel.encode(), "data": body}
			)
		except queue.Full:
			pass  # a reader that stopped reading loses events, as a slow Redis subscriber would be cut off

	def get_message(self, ignore_subscribe_messages: bool = False, timeout: float = 0.0) -> dict | None:
		deadline = time.monotonic() + max(timeout or 0.0, 0.0)
		while True:
			remaining = deadline - time.monotonic()
			try:
				if remaining > 0:
					message = self._messages.get(timeout=remaining)
				else:
					message = self._messages.get_nowait()
			except queue.Empty:
				return None
			if not (ignore_subscribe_messages and message["type"] != "message"):
				return message

	def close(self) -> None:
		self.channels.clear()
		self.connection._forget(self)

	reset = close


LOCAL = LocalConnection()
