"""Realtime delivery without a socketio server: in-process subscribers per site, and Redis' `events` channel.

Subscribers register per site with `subscribe(site, callback)`; each event reaches them as a dict
{event, message, room, namespace (= site), site, user}. When `redis_socketio` (or `redis_cache`) is
configured, events are also published on the Redis channel "events", as Frappe does for its socketio server.
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import frappe
from frappe.utils.data import cstr

_subscribers: dict[str, list[Callable[[dict], Any]]] = defaultdict(list)
_subscribers_lock = threading.Lock()


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
	url = conf.get("redis_socketio") or conf.get("redis_cache")
	if not url:
		return
	try:
		from frappe_lite.cache import get_backend
		from frappe_lite.held_writes import send

		# inside a commit's callbacks: sent with the commit's other writes (frappe_lite.held_writes)
		send(get_backend(url), "publish", "events", json.dumps(payload, default=cstr))
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
