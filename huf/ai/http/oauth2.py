"""OAuth 2.0 pieces every Huf client of an authorization server uses (MCP servers, Integration Settings).

- `remember_state` / `take_state`: the pending authorization behind a one-time `state` (in the cache,
  10 minutes, with the user who started it: callers refuse another user's; gone once read);
- `pkce_challenge`: the S256 code challenge of a PKCE verifier;
- `token_error`: the readable reason of a token endpoint's error answer;
- `needs_refresh`: whether an access token expiring at a time is due for a refresh;
- `store_tokens`: tokens written to a document's Password fields (encrypted) and committed at once, so a
  rotated refresh token survives the rollback of whatever failed after it.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from datetime import timedelta
from typing import Any

import frappe
from frappe.utils import get_datetime, now_datetime

STATE_TTL = 600
REFRESH_MARGIN = timedelta(seconds=60)


def remember_state(kind: str, data: dict) -> str:
	"""Keep `data` of a started authorization of `kind` ("mcp", "integration"); the new `state`."""
	state = secrets.token_urlsafe(32)
	frappe.cache.set_value(
		_state_key(kind, state), {**data, "user": frappe.session.user}, expires_in_sec=STATE_TTL
	)
	return state


def take_state(kind: str, state: str | None) -> dict | None:
	"""The data of `state` with its "user" (once: it is forgotten), or None when unknown or expired."""
	if not state or not isinstance(state, str):
		return None
	key = _state_key(kind, state)
	pending = frappe.cache.get_value(key)
	frappe.cache.delete_value(key)
	return pending if isinstance(pending, dict) else None


def pkce_challenge(verifier: str) -> str:
	digest = hashlib.sha256(verifier.encode()).digest()
	return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_error(data: Any) -> str:
	"""`error_description` or `error` of a token endpoint's JSON answer (at most 300 characters)."""
	if not isinstance(data, dict):
		return ""
	return str(data.get("error_description") or data.get("error") or "")[:300]


def needs_refresh(expires_at) -> bool:
	"""True when a token expiring at `expires_at` (None: unknown) expires within a minute."""
	return bool(expires_at) and get_datetime(expires_at) <= now_datetime() + REFRESH_MARGIN


def store_tokens(doc: Any, values: dict) -> None:
	"""`doc.db_set(values)` with its Password fields encrypted as a save would, then commit."""
	from frappe.utils.password import set_encrypted_password

	values = dict(values)
	for field in (df.fieldname for df in doc.meta.get("fields", {"fieldtype": "Password"})):
		secret = values.get(field)
		if secret and not doc.is_dummy_password(secret):
			set_encrypted_password(doc.doctype, doc.name, secret, field)
			values[field] = "*" * len(secret)
	doc.db_set(values)
	frappe.db.commit()


def _state_key(kind: str, state: str) -> str:
	return f"huf:oauth_state:{kind}:{state}"
