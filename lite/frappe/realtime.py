"""`frappe.publish_realtime`: an in-process pub/sub per site that the SSE renderer and tests listen to.

On a bench the same call goes to socket.io through Redis; here subscribers are callbacks registered
with `subscribe(site, callback)` and run in the publishing thread (after commit when asked).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import frappe

_subscribers: dict[str, list[Callable[[dict], None]]] = {}
_lock = threading.Lock()


def subscribe(site: str, callback: Callable[[dict], None]) -> None:
	"""Call `callback(event)` for every event published on `site`."""
	with _lock:
		_subscribers.setdefault(site, []).append(callback)


def unsubscribe(site: str, callback: Callable[[dict], None]) -> None:
	with _lock:
		callbacks = _subscribers.get(site, [])
		if callback in callbacks:
			callbacks.remove(callback)


def publish_realtime(
	event: str | None = None,
	message: Any = None,
	room: str | None = None,
	user: str | None = None,
	doctype: str | None = None,
	docname: str | None = None,
	task_id: str | None = None,
	after_commit: bool = False,
) -> None:
	"""Deliver `event` to this site's subscribers (to the room of a user, a document or a task)."""
	if not event:
		return
	if not room:
		if task_id:
			room = f"task_progress:{task_id}"
		elif user:
			room = f"user:{user}"
		elif doctype and docname:
			room = f"doc:{doctype}/{docname}"
		else:
			room = "all"
	payload = {"event": event, "message": message, "room": room, "user": user, "site": getattr(frappe.local, "site", None)}
	if after_commit and getattr(frappe.local, "db", None):
		frappe.db.after_commit.add(_deliver, payload)
	else:
		_deliver(payload)


def _deliver(payload: dict) -> None:
	log = getattr(frappe.local, "realtime_log", None)
	if log is not None:
		log.append(payload)
	with _lock:
		callbacks = list(_subscribers.get(payload["site"] or "", []))
	for callback in callbacks:
		try:
			callback(payload)
		except Exception:
			frappe.logger("realtime").exception("realtime subscriber failed")
