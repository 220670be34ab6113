"""`frappe.publish_realtime`: events to the rooms of a site, delivered to in-process subscribers.

Subscribers (the SSE renderer, tests) register per site with `subscribe(site, callback)`; each
event reaches them as a dict {event, message, room, namespace (= site), site, user}. When `redis_socketio` (or
`redis_cache`) is configured, events are also published on the Redis channel "events", as Frappe
does for its socketio server.
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


def publish_progress(
	percent: float,
	title: str | None = None,
	doctype: str | None = None,
	docname: str | None = None,
	description: str | None = None,
	task_id: str | None = None,
) -> None:
	"""Publish a `progress` event (to the document's room, or to the session user)."""
	publish_realtime(
		"progress",
		{"percent": percent, "title": title, "description": description},
		user=None if doctype and docname else frappe.session.user,
		doctype=doctype,
		docname=docname,
		task_id=task_id,
	)


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
	"""Send `message` as `event` to a room: task, user, document, DocType or the whole site.

	With `after_commit`, the event is held until the transaction commits (dropped on rollback).
	"""
	if message is None:
		message = {}
	if not task_id and getattr(frappe.local, "task_id", None):
		task_id = frappe.local.task_id

	if event is None:
		event = "task_progress" if task_id else "global"
	elif event == "msgprint" and not user:
		user = frappe.session.user
	elif event == "list_update":
		doctype = doctype or (message.get("doctype") if isinstance(message, dict) else None)
		room = get_doctype_room(doctype)
	elif event == "docinfo_update":
		room = get_doc_room(doctype, docname)

	if not room:
		if task_id:
			after_commit = False
			if isinstance(message, dict) and "task_id" not in message:
				message["task_id"] = task_id
			room = get_task_progress_room(task_id)
		elif user:
			room = get_user_room(user)
		elif doctype and docname:
			room = get_doc_room(doctype, docname)
		else:
			room = get_site_room()

	if after_commit and getattr(frappe.local, "db", None) is not None:
		pending = getattr(frappe.local, "_realtime_log", None)
		if pending is None:
			pending = frappe.local._realtime_log = []
			frappe.db.after_commit.add(flush_realtime_log)
			frappe.db.after_rollback.add(clear_realtime_log)
		params = [event, message, room, user]
		if params not in pending:
			pending.append(params)
	else:
		emit(event, message, room, user)


def flush_realtime_log() -> None:
	"""Send the events held until commit."""
	pending = getattr(frappe.local, "_realtime_log", None) or []
	clear_realtime_log()
	for args in pending:
		emit(*args)


def clear_realtime_log() -> None:
	if hasattr(frappe.local, "_realtime_log"):
		del frappe.local._realtime_log


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


def emit_via_redis(event: str, message: Any, room: str) -> None:
	"""Frappe's name for sending an event now."""
	emit(event, message, room)


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
		from frappe.utils.caching import get_backend

		get_backend(url).publish("events", json.dumps(payload, default=cstr))
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


def get_doctype_room(doctype: str | None) -> str:
	return f"doctype:{doctype}"


def get_doc_room(doctype: str | None, docname: str | None) -> str:
	return f"doc:{doctype}/{cstr(docname)}"


def get_user_room(user: str) -> str:
	return f"user:{user}"


def get_site_room() -> str:
	return "all"


def get_task_progress_room(task_id: str) -> str:
	return f"task_progress:{task_id}"


def get_website_room() -> str:
	return "website"


@frappe.whitelist(allow_guest=True)
def has_permission(doctype: str, name: str) -> bool:
	frappe.has_permission(doctype, doc=name, throw=True)
	return True


@frappe.whitelist(allow_guest=True)
def get_user_info() -> dict:
	return {"user": frappe.session.user, "installed_apps": frappe.get_installed_apps()}
