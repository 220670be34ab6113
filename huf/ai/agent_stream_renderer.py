"""Server-Sent Events for agent runs: `POST /huf/stream/<agent_name>`, a demo page at `/huf/stream`
and a health check at `GET /huf/stream/ping` ("ping" is never taken as an agent's name).

A run is started by a POST (JSON or form: prompt, channel_id, external_id, conversation_id, attachments)
authenticated by the session cookie plus its CSRF token, or by an API token. A GET starts one only with
a stream token a POST obtained (`huf.ai.runtime.stream_tokens`: `GET /huf/stream/<agent>?token=...`,
what a browser's `EventSource` can send); `GET /huf/stream/<agent>?run=<id>` reads a run on. Frames are
`id: <n>\\ndata: {json}\\n\\n`, one per event of the agent loop (`huf.ai.runtime.events`), numbered
per run; a client that lost the connection sends the last id it got (`Last-Event-ID`, or the
`last_event_id` parameter) and gets the rest (`huf.ai.runtime.event_log`). A client that goes away does
not stop the run; the cancel endpoint does.
"""

from __future__ import annotations

import hmac
import json
import socket
from collections.abc import Iterator
from urllib.parse import unquote

import frappe
from frappe import _
from frappe.utils import cint
from frappe.website.page_renderers.base_renderer import BaseRenderer
from werkzeug.wrappers import Response

from huf.ai.runtime import event_log, events, stream_tokens
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.sse import encode_frame
from huf.huf import guest_key
from huf.request_limits import check_prompt_length, check_run_rate

ROUTE = "huf/stream"
PING_ROUTE = ROUTE + "/ping"  # a health check of the stream path, never an agent's stream
DEMO_TEMPLATE = "huf/www/huf_stream.html"
TOKEN_SCHEMES = ("token", "basic")  # both are verified by the framework before we get here
RETRY_MS = 2000  # how long an EventSource waits before it reconnects
STREAM_HEADERS = {
	"Cache-Control": "no-cache",
	"X-Accel-Buffering": "no",  # nginx: pass frames on at once
	"X-Content-Type-Options": "nosniff",
}


class AgentStreamRenderer(BaseRenderer):
	"""`/huf/stream` (demo page), `/huf/stream/ping` and `/huf/stream/<agent_name>` (the event stream)."""

	def can_render(self) -> bool:
		return self.path == ROUTE or self.path.startswith(ROUTE + "/")

	def render(self) -> Response:
		request = frappe.local.request
		# the request path, not the resolved endpoint (which loses a trailing ".html" and the like)
		path = unquote(request.path).strip("/") if request else self.path
		if path == ROUTE:
			return self._render_html_page()
		if path == PING_ROUTE:
			return ping_response()
		return self._render_agent_stream(path[len(ROUTE) + 1 :])

	# --- the stream ------------------------------------------------------------------------------

	def _render_agent_stream(self, agent_name: str) -> Response:
		request = frappe.local.request
		if request.method == "GET" and (frappe.form_dict.get("token") or frappe.form_dict.get("run")):
			return self._render_get_stream(agent_name)
		if request.method != "POST":
			return error_response(
				405,
				"MethodNotAllowed",
				_(
					"Start a stream with a POST request, or with a GET carrying a stream token (a GET never runs an agent on its own)."
				),
				{"Allow": "POST"},
			)
		try:
			check_request_authenticity()
			run_request = read_stream_arguments(agent_name)
			check_can_stream(run_request)
			check_run_rate()
		except Exception as e:
			status = getattr(e, "http_status_code", None)  # Frappe's errors carry their HTTP status
			if not status:
				raise
			frappe.clear_messages()
			return error_response(status, type(e).__name__, str(e) or _("Not permitted"))
		set_nodelay(request.environ)
		stream = event_stream(
			frappe.local.site,
			frappe.local.sites_path,
			frappe.session.user,
			getattr(frappe.local, "lang", None),
			run_request,
			guest_key.current_hash() if frappe.session.user == "Guest" else None,
		)
		return Response(
			stream,
			status=200,
			mimetype="text/event-stream",
			headers=STREAM_HEADERS,
			direct_passthrough=True,
		)

	def _render_get_stream(self, agent_name: str) -> Response:
		"""`?token=`: start the run the token was issued for (or, once used, follow that run); `?run=`:
		follow a run the caller may read. Both read on after `Last-Event-ID` / `last_event_id`; 204 when
		the client has every event already."""
		form, user = frappe.form_dict, frappe.session.user
		after = last_event_id()
		token = form.get("token")
		try:
			if token:
				run_request, run = take_stream_token(token, agent_name)
				if run_request is not None:
					check_can_stream(run_request)
					check_run_rate()
			else:
				run_request, run = None, check_can_follow(form.get("run"), agent_name, form.get("session_id"))
		except Exception as e:
			status = getattr(e, "http_status_code", None)
			if not status:
				raise
			frappe.clear_messages()
			return error_response(status, type(e).__name__, str(e) or _("Not permitted"))
		if run_request is None and event_log.read_to_end(run, after):
			return Response(status=204)  # nothing more will come: an EventSource stops reconnecting
		set_nodelay(frappe.local.request.environ)
		site, sites_path = frappe.local.site, frappe.local.sites_path
		if run_request is not None:
			lang = getattr(frappe.local, "lang", None)
			stream = event_stream(site, sites_path, user, lang, run_request, None, token)
		else:
			guest = guest_key.current_hash() if user == "Guest" else None
			stream = follow_stream(site, sites_path, user, run, after, guest)
		return Response(
			retry_frame(stream),
			status=200,
			mimetype="text/event-stream",
			headers=STREAM_HEADERS,
			direct_passthrough=True,
		)

	# --- the demo page ---------------------------------------------------------------------------

	def _render_html_page(self) -> Response:
		if frappe.local.request.method not in ("GET", "HEAD"):
			return error_response(405, "MethodNotAllowed", _("Method not allowed."), {"Allow": "GET, HEAD"})
		html = frappe.render_template(DEMO_TEMPLATE, get_demo_context())
		response = Response(html, status=200, mimetype="text/html")
		response.headers["Cache-Control"] = "no-store"
		response.headers["X-Frame-Options"] = "SAMEORIGIN"
		return response


def ping_response() -> Response:
	"""`GET /huf/stream/ping`: {"ok": true, "time": ...}, for a quick check that the stream path is served."""
	if frappe.local.request.method not in ("GET", "HEAD"):
		return error_response(405, "MethodNotAllowed", _("Method not allowed."), {"Allow": "GET, HEAD"})
	body = json.dumps({"ok": True, "time": frappe.utils.now()})
	return Response(body, status=200, mimetype="application/json", headers={"Cache-Control": "no-store"})


def get_demo_context() -> dict:
	"""Template values of the demo page: the CSRF token of the session and the agents it may use."""
	from frappe.sessions import get_csrf_token

	user = frappe.session.user
	agents = []
	if user != "Guest" and frappe.has_permission("Agent", "read"):
		agents = frappe.get_list(
			"Agent", filters={"disabled": 0}, pluck="name", order_by="name asc", limit_page_length=200
		)
	return {
		"csrf_token": (get_csrf_token() or "") if user != "Guest" else "",
		"user": user,
		"agents": agents,
		"stream_route": "/" + ROUTE,
	}


def check_request_authenticity() -> None:
	"""A session request must carry its CSRF token; an API-token request already proved who it is."""
	scheme = (frappe.get_request_header("Authorization") or "").split(" ", 1)[0].lower()
	if scheme in TOKEN_SCHEMES and frappe.session.user != "Guest":
		return  # browsers never attach this header cross-site without a CORS preflight
	if frappe.session.user == "Guest":
		return  # no session to ride on; the runtime admits guests only to agents that allow them
	saved = (frappe.session.data or {}).get("csrf_token")
	given = frappe.get_request_header("X-Frappe-CSRF-Token") or posted_csrf_token()
	if not (saved and given and hmac.compare_digest(str(given), str(saved))):
		frappe.throw(_("Invalid Request: the CSRF token is missing or wrong."), frappe.CSRFTokenError)


def posted_csrf_token() -> str | None:
	"""`csrf_token` from the form or JSON body (the framework may already have taken it from form_dict)."""
	token = frappe.form_dict.get("csrf_token")
	if token:
		return token
	request = frappe.local.request
	if request.is_json:
		body = request.get_json(silent=True)
		return body.get("csrf_token") if isinstance(body, dict) else None
	return request.form.get("csrf_token")


def read_stream_arguments(agent_name: str) -> RunRequest:
	"""The run the POST body (JSON or form) asks for."""
	form = frappe.form_dict
	prompt = form.get("prompt")
	if not isinstance(prompt, str) or not prompt.strip():
		frappe.throw(_("Write a prompt for the agent."), frappe.ValidationError)
	check_prompt_length(prompt)
	ids = {}
	for key in ("channel_id", "external_id", "conversation_id"):
		value = form.get(key)
		if value not in (None, ""):
			if not isinstance(value, str | int):
				frappe.throw(_("{0} must be text.").format(key))
			ids[key] = str(value)
	return RunRequest(
		agent_name,
		prompt,
		channel=ids.get("channel_id"),
		external_id=ids.get("external_id"),
		conversation=ids.get("conversation_id"),
		# file URLs the chat uploaded; tools that open them check the user's access to each file
		attachments=form.get("attachments") or None,
	)


def check_can_stream(request: RunRequest) -> None:
	"""Refuse before the first frame what the runtime would refuse (so it gets a proper HTTP status)."""
	from huf.ai.conversation.manager import ConversationManager
	from huf.huf.run_access import check_can_run, load_agent

	check_can_run(load_agent(request.agent))
	if request.conversation:
		manager = ConversationManager(request.agent, request.channel, request.external_id)
		manager.get_conversation(request.conversation, "write")


def last_event_id() -> int:
	"""The last event the client got: the `Last-Event-ID` header (an EventSource reconnecting) or the
	`last_event_id` parameter; 0 for none."""
	value = frappe.get_request_header("Last-Event-ID") or frappe.form_dict.get("last_event_id")
	return max(cint(value), 0) if str(value or "").strip().isdigit() else 0


def take_stream_token(token: str, agent_name: str) -> tuple[RunRequest | None, str | None]:
	"""The run request the token starts, or the run it started; refused for guests, other users, another
	agent, and tokens that are unknown, used up or expired."""
	user = frappe.session.user
	if user == "Guest":
		frappe.throw(_("Sign in to use a stream token."), frappe.PermissionError)
	run_request, run = stream_tokens.take(str(token), user)
	if run_request is not None and run_request.agent == agent_name:
		return run_request, None
	if run and frappe.db.get_value("Agent Run", run, "agent") == agent_name:
		return None, run
	frappe.throw(
		_("The stream token is unknown, used up or expired. Ask for a new one."), frappe.PermissionError
	)


def check_can_follow(run: str | None, agent_name: str, session_id: str | None = None) -> str:
	"""The run `run` of `agent_name` when the caller may read it (guests: with its session id)."""
	from huf.huf.run_access import check_can_read_run

	found = (
		isinstance(run, str) and bool(run) and frappe.db.get_value("Agent Run", run, "agent") == agent_name
	)
	if not found:
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	document = frappe.get_doc("Agent Run", run)
	check_can_read_run(document, session_id)
	return document.name


def retry_frame(frames: Iterator[bytes]) -> Iterator[bytes]:
	"""`frames` after a `retry:` field, which sets how soon an EventSource reconnects."""
	yield b"retry: %d\n\n" % RETRY_MS
	yield from frames


def follow_stream(
	site: str, sites_path: str, user: str, run: str, after: int, guest: str | None = None
) -> Iterator[bytes]:
	"""SSE frames of a run from the event after `after` to its end (`event_log.follow`), in a context of
	its own; a comment line while nothing comes keeps proxies from closing the connection."""
	frappe.init(site, sites_path=sites_path, force=True)
	try:
		frappe.connect(set_admin_as_user=False)
		frappe.set_user(user)
		guest_key.adopt(guest)
		for item in event_log.follow(run, after):
			yield b": waiting\n\n" if item is None else encode_frame(item[1], item[0])
	finally:
		frappe.destroy()


def event_stream(
	site: str,
	sites_path: str,
	user: str,
	lang: str | None,
	run_request: RunRequest,
	guest: str | None = None,
	token: str | None = None,
) -> Iterator[bytes]:
	"""SSE frames of one run, produced in a context of its own (the request's is gone by then; a guest's
	key hash `guest` is carried over). With the stream `token` that started it, the token names the run
	from its first event on."""
	frappe.init(site, sites_path=sites_path, force=True)
	run_events = None
	run_id = None
	try:
		frappe.connect(set_admin_as_user=False)
		frappe.set_user(user)
		guest_key.adopt(guest)
		if lang:
			frappe.local.lang = lang
		from huf.ai.runtime import front_door

		run_events = front_door.stream_kept(run_request)
		for event_id, event in run_events:
			if token and run_id is None and event.get("agent_run_id"):
				stream_tokens.bind(token, user, event["agent_run_id"])
			run_id = event.get("agent_run_id") or run_id
			yield encode_frame(event, event_id)
		frappe.db.commit()
	except GeneratorExit:  # the client went away: the run goes on to its end (front_door.stream_kept)
		_close(run_events)
		frappe.db.commit()
		raise
	except Exception as e:
		_close(run_events)
		if getattr(frappe.local, "db", None):
			frappe.db.rollback()
		message = readable_error(e)
		if getattr(frappe.local, "db", None):
			frappe.db.commit()  # the Error Log
		yield encode_frame(events.error(message, run_id))
	finally:
		frappe.destroy()


def _close(run_events) -> None:
	if run_events is not None and hasattr(run_events, "close"):
		try:
			run_events.close()
		except Exception:
			frappe.log_error(title="Closing an agent stream failed")


def readable_error(e: Exception) -> str:
	"""A message for the client: Frappe's and the providers' messages, nothing internal."""
	from huf.ai.providers import ProviderError

	user_facing = isinstance(e, ProviderError) or getattr(e, "http_status_code", 500) < 500
	if user_facing and str(e):
		return frappe.utils.strip_html(str(e))
	frappe.log_error(title="Agent stream failed")
	return _("The agent run failed. The error was logged.")


def error_response(status: int, exc_type: str, message: str, headers: dict | None = None) -> Response:
	"""A JSON error in Frappe's shape (`exc_type`, `message`) with the given HTTP status."""
	body = json.dumps({"exc_type": exc_type, "message": frappe.utils.strip_html(message)})
	return Response(body, status=status, mimetype="application/json", headers=headers)


def set_nodelay(environ: dict) -> None:
	"""Send each frame at once instead of waiting for the client's ACK (Nagle) on dev servers and gunicorn."""
	sock = environ.get("werkzeug.socket") or environ.get("gunicorn.socket")
	if sock is not None:
		try:
			sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
		except (OSError, AttributeError):
			pass
