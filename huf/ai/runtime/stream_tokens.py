"""Stream tokens: how a GET (a browser's `EventSource`) starts a streamed run without trusting the cookie alone.

A GET carrying only the session cookie could be sent by any other site, so it never starts a run. Instead
a POST (`huf.api.stream.stream_token`, which Frappe checks for the session's CSRF token, or an API
token) asks for a token: `issue` keeps the run request, already checked, under a random token for
`huf_stream_token_seconds` (site config, default 60) in the cache, bound to the user who asked. Only the
token's SHA-256 is stored, in a key that names the user, so another user's request never finds it.

`take(token, user)` hands it over once: the first GET starts the run, and `bind` makes the token name
that run from then on. A later GET with the same token (an `EventSource` reconnecting after a lost
connection, with `Last-Event-ID`) follows that run instead of starting another, for as long as the
run's events are kept (`event_log`).
"""

from __future__ import annotations

import hashlib
import json
import secrets

import frappe
from frappe.utils import cint

from huf.ai.runtime import event_log
from huf.ai.runtime.run_request import RunRequest

DEFAULT_SECONDS = 60
FIELDS = ("agent", "prompt", "conversation", "channel", "external_id", "attachments")


def token_seconds() -> int:
	return cint(frappe.conf.get("huf_stream_token_seconds")) or DEFAULT_SECONDS


def _keys(token: str, user: str) -> tuple[bytes, bytes]:
	digest = hashlib.sha256(str(token).encode()).hexdigest()
	cache = frappe.cache()
	return (
		cache.make_key(f"huf:stream_token:{user}:{digest}"),
		cache.make_key(f"huf:stream_token_run:{user}:{digest}"),
	)


def issue(request: RunRequest) -> str:
	"""A new token for `request` (checked by the caller), valid for one start by the session user."""
	token = secrets.token_urlsafe(32)
	waiting, _run = _keys(token, frappe.session.user)
	values = {key: getattr(request, key) for key in FIELDS}
	frappe.cache().set(waiting, json.dumps(values, default=str), ex=token_seconds())
	return token


def take(token: str, user: str) -> tuple[RunRequest | None, str | None]:
	"""`(request, None)` the first time `user` presents `token`, `(None, run)` once it started `run`,
	`(None, None)` for a token that is unknown, expired or not `user`'s."""
	if not token or not isinstance(token, str):
		return None, None
	waiting, started = _keys(token, user)
	pipe = frappe.cache().pipeline(transaction=True)  # read and delete as one step: one start only
	pipe.get(waiting)
	pipe.delete(waiting)
	pipe.get(started)
	values, _deleted, run = pipe.execute()
	if values is not None:
		return RunRequest(**json.loads(values)), None
	return None, (run.decode() if isinstance(run, bytes) else run) or None


def bind(token: str, user: str, run: str) -> None:
	"""Make the used `token` name `run` while the run's events are kept."""
	_waiting, started = _keys(token, user)
	frappe.cache().set(started, run, ex=event_log.keep_seconds())
