"""`GET /huf/events`: the Huf realtime events addressed to the signed-in user, as Server-Sent Events.

The events are read from Frappe's own realtime channel: `frappe.publish_realtime` publishes each one on the
Redis channel "events" of `redis_queue` (what Frappe's socket.io server reads; Frappe Lite answers the same
connection, in-process without Redis). The stream forwards the events of `huf.ai.live_events` sent to the
user's room, and those sent to a Knowledge Source's or Agent Trigger's room when the user may read that
document. Each frame is `data: {"kind", "event", "message"}`; a comment line every 2 s keeps proxies
from closing it (and finds a client that left); it ends after 50 s (the browser's EventSource reconnects).

An open stream holds a thread of the web server for its whole life, so a process serves at most
`huf_max_event_streams` (site config, default 8) at once, and a server that handles one request at a time
(gunicorn's default sync workers) serves none: those requests get 503 and the dashboard polls instead.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import frappe
from frappe import _
from frappe.utils.background_jobs import get_redis_connection_without_auth
from frappe.website.page_renderers.base_renderer import BaseRenderer
from werkzeug.wrappers import Response

from huf.ai import live_events
from huf.ai.agent_stream_renderer import STREAM_HEADERS, error_response, set_nodelay
from huf.ai.runtime.sse import encode_frame

ROUTE = "huf/events"
CHANNEL = "events"
DEFAULT_MAX_STREAMS = 8
STREAM_SECONDS = 50
HEARTBEAT_SECONDS = 2  # also how soon a stream whose client left (a page left) frees its slot
RETRY_MS = 2000
RETRY_REFUSED_SECONDS = 15  # the dashboard's EventSource client waits as long after a 503

_open = 0
_open_lock = threading.Lock()


class LiveEventsRenderer(BaseRenderer):
	"""`/huf/events`: the signed-in user's Huf events."""

	def can_render(self) -> bool:
		return self.path == ROUTE

	def render(self) -> Response:
		request = frappe.local.request
		if request and unquote(request.path).strip("/") != ROUTE:
			return error_response(404, "DoesNotExistError", _("Not found."))
		if request.method != "GET":
			return error_response(405, "MethodNotAllowed", _("Method not allowed."), {"Allow": "GET"})
		user = frappe.session.user
		if user == "Guest":
			return error_response(403, "PermissionError", _("Sign in to receive live updates."))
		if not request.environ.get("wsgi.multithread"):
			return busy_response(_("This server handles one request at a time: poll instead."))
		if not take_slot():
			return busy_response(_("Too many live update streams are open: poll instead."))
		try:
			pubsub = get_redis_connection_without_auth().pubsub()
			pubsub.subscribe(CHANNEL)
		except Exception:
			release_slot()
			frappe.logger("huf").warning("could not subscribe to the realtime channel", exc_info=True)
			return busy_response(_("Live updates are not available: poll instead."))
		set_nodelay(request.environ)
		stream = event_stream(pubsub, frappe.local.site, frappe.local.sites_path, user)
		return Response(
			stream, status=200, mimetype="text/event-stream", headers=STREAM_HEADERS, direct_passthrough=True
		)


def max_streams() -> int:
	value = frappe.conf.get("huf_max_event_streams")
	return DEFAULT_MAX_STREAMS if value is None else max(int(value), 0)


def take_slot() -> bool:
	global _open
	limit = max_streams()
	with _open_lock:
		if _open >= limit:
			return False
		_open += 1
		return True


def release_slot() -> None:
	global _open
	with _open_lock:
		_open = max(_open - 1, 0)


def busy_response(message: str) -> Response:
	response = error_response(503, "ServiceUnavailable", message)
	response.headers["Retry-After"] = str(RETRY_REFUSED_SECONDS)
	return response


def event_stream(pubsub: Any, site: str, sites_path: str, user: str) -> Iterator[bytes]:
	"""The frames of one stream: the user's events until the stream's time is up (then the client reconnects)."""
	readable = DocReader(site, sites_path, user)
	try:
		yield f"retry: {RETRY_MS}\n: connected\n\n".encode()
		deadline = time.monotonic() + STREAM_SECONDS
		beat = time.monotonic() + HEARTBEAT_SECONDS
		while (now := time.monotonic()) < deadline:
			message = pubsub.get_message(ignore_subscribe_messages=True, timeout=min(beat, deadline) - now)
			if message and message.get("type") == "message":
				frame = forward(message.get("data"), site, user, readable)
				if frame:
					yield encode_frame(frame)
			if time.monotonic() >= beat:
				yield b": ping\n\n"
				beat = time.monotonic() + HEARTBEAT_SECONDS
	finally:
		release_slot()
		readable.close()
		try:
			pubsub.close()
		except Exception:
			pass


def forward(data: Any, site: str, user: str, readable: DocReader) -> dict | None:
	"""The frame for one message of the channel, or None when it is not a Huf event for `user`."""
	try:
		payload = json.loads(data)
	except (TypeError, ValueError):
		return None
	if not isinstance(payload, dict) or payload.get("namespace") != site:
		return None
	event, room = payload.get("event"), str(payload.get("room") or "")
	kind = live_events.KINDS.get(event)
	if not kind:
		return None
	if room == f"user:{user}":
		return {"kind": kind, "event": event, "message": payload.get("message")}
	doctype, _sep, name = room.removeprefix("doc:").partition("/")
	if room.startswith("doc:") and live_events.DOC_ROOMS.get(doctype) == event and readable(doctype, name):
		return {"kind": kind, "event": event, "message": payload.get("message")}
	return None


class DocReader:
	"""Whether the stream's user may read a document (Frappe's permission rules), remembered for the stream."""

	def __init__(self, site: str, sites_path: str, user: str) -> None:
		self.site, self.sites_path, self.user = site, sites_path, user
		self.known: dict[tuple[str, str], bool] = {}
		self.connected = False

	def __call__(self, doctype: str, name: str) -> bool:
		key = (doctype, name)
		if key not in self.known:
			self.known[key] = self._check(doctype, name)
		return self.known[key]

	def _check(self, doctype: str, name: str) -> bool:
		try:
			if not self.connected:
				frappe.init(self.site, sites_path=self.sites_path, force=True)
				frappe.connect(set_admin_as_user=False)
				frappe.set_user(self.user)
				self.connected = True
			frappe.db.rollback()  # a fresh read
			return bool(frappe.has_permission(doctype, "read", doc=name, user=self.user))
		except Exception:
			return False

	def close(self) -> None:
		if self.connected:
			frappe.destroy()
