"""Which guest a request comes from: a random key the server issues in an HTTP-only cookie (`huf_guest`).

A guest's conversation keeps the key's SHA-256 (`guest_key_hash`); only a request carrying that key
continues it or reads its runs (compared in constant time). An external id or a session id alone
never identifies a guest. Outside a web request (the engine's own jobs run only what was admitted
when it was queued) no key is asked for, unless a context adopted one (`adopt`: the SSE stream).
"""

import hashlib
import hmac
import re
import secrets

import frappe

COOKIE = "huf_guest"
MAX_AGE = 30 * 24 * 3600  # seconds the browser keeps the key
_ISSUED = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)


def current_hash() -> str | None:
	"""The hash of this guest's key (a new key, set as a cookie, when the request has none); None outside
	a web request unless one was adopted."""
	adopted = frappe.flags.get("huf_guest_key_hash")
	if adopted:
		return adopted
	request = getattr(frappe.local, "request", None)
	if request is None:
		return None
	key = request.cookies.get(COOKIE) or ""
	if not _ISSUED.fullmatch(key):
		key = secrets.token_urlsafe(32)
		cookies = getattr(frappe.local, "cookie_manager", None)
		if cookies is not None:
			cookies.set_cookie(COOKIE, key, max_age=MAX_AGE, httponly=True)
	adopt(hashlib.sha256(key.encode()).hexdigest())
	return frappe.flags.huf_guest_key_hash


def adopt(key_hash: str | None) -> None:
	"""Act for the guest whose key hashes to `key_hash` (a context of its own, after the request)."""
	frappe.flags.huf_guest_key_hash = key_hash


def matches(stored: str | None) -> bool:
	"""Whether this guest holds the key hashed to `stored` (always outside a web request: engine jobs)."""
	current = current_hash()
	if current is None:
		return True
	return bool(stored) and hmac.compare_digest(str(stored), current)
