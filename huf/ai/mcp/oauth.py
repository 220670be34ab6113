"""OAuth 2.1 for MCP servers: discovery, dynamic client registration, authorization code + PKCE, refresh.

Connect (a user who may edit the server) -> `start_authorization` discovers the authorization server
(RFC 9728 protected-resource metadata, then RFC 8414 / OpenID metadata), registers a public client
when none is configured (RFC 7591), keeps the PKCE verifier under a one-time `state` in the cache and
returns the authorization URL. The provider redirects the browser to `/mcp-oauth-callback`, where
`complete_authorization` exchanges the code; tokens are stored in the server's Password fields and
refreshed shortly before they expire.
"""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, get_url, now_datetime

from huf.ai.http import oauth2
from huf.ai.mcp.errors import MCPClientError

CALLBACK_PATH = "/mcp-oauth-callback"
STATE_KIND = "mcp"
HTTP_TIMEOUT = 15
MAX_RESPONSE_BYTES = 1_000_000


def redirect_uri(doc: Any) -> str:
	return (doc.oauth_redirect_uri or "").strip() or get_url(CALLBACK_PATH)


# --- discovery -----------------------------------------------------------------------------------


def discover(doc: Any) -> dict:
	"""Find the authorization server of `doc` and store its endpoints; returns the metadata found."""
	try:
		resource_meta_url, resource_meta = _protected_resource_metadata(doc.server_url)
		servers = (resource_meta or {}).get("authorization_servers") or []
		issuer = servers[0] if servers else _origin(doc.server_url)
		server_meta = _authorization_server_metadata(issuer)
		if not server_meta:
			raise MCPClientError(_("No OAuth authorization server metadata found for {0}.").format(issuer))
	except MCPClientError as exc:
		doc.db_set(
			{
				"oauth_discovery_status": "Failed",
				"oauth_discovery_error": str(exc),
				"oauth_last_discovered_at": now_datetime(),
			}
		)
		raise
	values = {
		"oauth_discovery_status": "Discovered",
		"oauth_discovery_error": None,
		"oauth_last_discovered_at": now_datetime(),
		"oauth_resource_metadata_url": resource_meta_url,
		"oauth_authorization_server": issuer,
		"oauth_registration_endpoint": server_meta.get("registration_endpoint"),
		"oauth_metadata_json": json.dumps(
			{"resource": resource_meta, "authorization_server": server_meta}, indent=1
		),
	}
	# endpoints typed in by the admin win over discovered ones
	for field, key in (
		("oauth_authorization_endpoint", "authorization_endpoint"),
		("oauth_token_endpoint", "token_endpoint"),
	):
		if not doc.get(field) and server_meta.get(key):
			values[field] = server_meta[key]
	doc.db_set(values)
	return server_meta


def _protected_resource_metadata(server_url: str) -> tuple[str | None, dict | None]:
	candidates = []
	hinted = _resource_metadata_hint(server_url)
	if hinted:
		candidates.append(hinted)
	parts = urlsplit(server_url)
	path = parts.path.rstrip("/")
	if path:
		candidates.append(_with_path(server_url, "/.well-known/oauth-protected-resource" + path))
	candidates.append(_with_path(server_url, "/.well-known/oauth-protected-resource"))
	for url in candidates:
		meta = _get_json(url)
		if meta:
			return url, meta
	return None, None


def _resource_metadata_hint(server_url: str) -> str | None:
	"""`resource_metadata` of the WWW-Authenticate header the server answers an unauthenticated request with."""
	try:
		with _http() as client:
			response = client.post(
				server_url,
				json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
				headers={"Accept": "application/json, text/event-stream"},
			)
	except Exception:
		return None
	header = response.headers.get("www-authenticate") or ""
	for part in header.replace("Bearer ", "", 1).split(","):
		key, _sep, value = part.strip().partition("=")
		if key.strip().lower() == "resource_metadata" and value:
			return value.strip().strip('"')
	return None


def _authorization_server_metadata(issuer: str) -> dict | None:
	parts = urlsplit(issuer)
	path = parts.path.rstrip("/")
	candidates = [
		_with_path(issuer, "/.well-known/oauth-authorization-server" + path),
		_with_path(issuer, "/.well-known/openid-configuration" + path),
	]
	if path:
		candidates.append(_with_path(issuer, path + "/.well-known/openid-configuration"))
	for url in candidates:
		meta = _get_json(url)
		if meta and meta.get("authorization_endpoint") and meta.get("token_endpoint"):
			return meta
	return None


# --- registration and authorization --------------------------------------------------------------


def register_client(doc: Any) -> str:
	"""Register Huf as a public client at the discovered registration endpoint; returns the client id."""
	endpoint = doc.oauth_registration_endpoint
	if not endpoint:
		raise MCPClientError(
			_(
				"The authorization server of {0} does not offer client registration: enter a Client ID."
			).format(doc.name)
		)
	payload = {
		"client_name": f"Huf ({urlsplit(get_url()).netloc})",
		"redirect_uris": [redirect_uri(doc)],
		"grant_types": ["authorization_code", "refresh_token"],
		"response_types": ["code"],
		"token_endpoint_auth_method": "none",
	}
	if doc.oauth_scope:
		payload["scope"] = doc.oauth_scope.strip()
	data = _post_json(endpoint, json_body=payload, what=_("Client registration"))
	client_id = data.get("client_id")
	if not client_id:
		raise MCPClientError(_("Client registration at {0} returned no client_id.").format(endpoint))
	values = {
		"oauth_client_id": client_id,
		"oauth_client_registration_method": data.get("token_endpoint_auth_method") or "none",
	}
	if data.get("client_secret"):
		values["oauth_client_secret"] = data["client_secret"]
	oauth2.store_tokens(doc, values)
	return client_id


def start_authorization(doc: Any) -> str:
	"""Prepare the authorization code + PKCE flow and return the URL to send the user's browser to."""
	if not (doc.oauth_authorization_endpoint and doc.oauth_token_endpoint):
		discover(doc)
		doc.reload()
	if not (doc.oauth_authorization_endpoint and doc.oauth_token_endpoint):
		raise MCPClientError(_("Enter the Authorization and Token Endpoints of {0}.").format(doc.name))
	client_id = (doc.oauth_client_id or "").strip()
	if not client_id:
		if not doc.oauth_registration_endpoint:
			discover(doc)
			doc.reload()
		client_id = register_client(doc)
	verifier = secrets.token_urlsafe(64)
	target = redirect_uri(doc)
	state = oauth2.remember_state(
		STATE_KIND, {"server": doc.name, "verifier": verifier, "redirect_uri": target}
	)
	params = {
		"response_type": "code",
		"client_id": client_id,
		"redirect_uri": target,
		"state": state,
		"code_challenge": oauth2.pkce_challenge(verifier),
		"code_challenge_method": "S256",
		"resource": doc.server_url,
	}
	if doc.oauth_scope:
		params["scope"] = doc.oauth_scope.strip()
	if doc.oauth_extra_authorize_params:
		params.update({k: str(v) for k, v in json.loads(doc.oauth_extra_authorize_params).items()})
	separator = "&" if "?" in doc.oauth_authorization_endpoint else "?"
	return doc.oauth_authorization_endpoint + separator + urlencode(params)


def complete_authorization(state: str, code: str) -> str:
	"""Exchange the code of a callback for tokens; returns the MCP Server's name."""
	pending = oauth2.take_state(STATE_KIND, state)
	if not pending:
		raise MCPClientError(_("This authorization link has expired or was already used. Connect again."))
	if pending["user"] != frappe.session.user:
		raise frappe.PermissionError(_("This authorization was started by another user."))
	doc = frappe.get_doc("MCP Server", pending["server"])
	doc.check_permission("write")
	if not code:
		raise MCPClientError(_("The authorization server returned no code."))
	body = {
		"grant_type": "authorization_code",
		"code": code,
		"redirect_uri": pending["redirect_uri"],
		"code_verifier": pending["verifier"],
		"resource": doc.server_url,
	}
	try:
		_store_tokens(doc, _token_request(doc, body))
	except MCPClientError as exc:
		doc.db_set("oauth_status", "Error")
		frappe.db.commit()
		raise exc
	return doc.name


def mark_failed(state: str, error: str) -> str | None:
	"""The provider refused (e.g. access_denied): forget the state, flag the server; returns its name."""
	pending = oauth2.take_state(STATE_KIND, state)
	if not pending or pending["user"] != frappe.session.user:
		return None
	frappe.db.set_value("MCP Server", pending["server"], "oauth_status", "Error")
	return pending["server"]


def disconnect(doc: Any) -> None:
	"""Forget the tokens (the client registration stays)."""
	from frappe.utils.password import remove_encrypted_password

	for field in ("oauth_access_token", "oauth_refresh_token"):
		remove_encrypted_password("MCP Server", doc.name, field)
	doc.db_set(
		{
			"oauth_access_token": None,
			"oauth_refresh_token": None,
			"oauth_token_expires_at": None,
			"oauth_status": "Not Connected",
		}
	)


# --- tokens --------------------------------------------------------------------------------------


def access_token(doc: Any) -> str:
	"""A valid access token of `doc`, refreshed when it expires within a minute."""
	token = doc.get_password("oauth_access_token", raise_exception=False) if doc.oauth_access_token else None
	if not token:
		raise MCPClientError(
			_("MCP server {0} is not connected: use Connect on the server first.").format(doc.name)
		)
	if oauth2.needs_refresh(doc.oauth_token_expires_at):
		token = refresh(doc)
	return token


def refresh(doc: Any) -> str:
	"""Use the refresh token; on failure the server becomes Expired and the error says to reconnect."""
	refresh_token = (
		doc.get_password("oauth_refresh_token", raise_exception=False) if doc.oauth_refresh_token else None
	)
	if not refresh_token:
		_set_status(doc, "Expired")
		raise MCPClientError(
			_("The OAuth token of MCP server {0} has expired: connect again.").format(doc.name)
		)
	try:
		data = _token_request(
			doc, {"grant_type": "refresh_token", "refresh_token": refresh_token, "resource": doc.server_url}
		)
	except MCPClientError as exc:
		_set_status(doc, "Expired")
		raise MCPClientError(
			_("The OAuth token of MCP server {0} could not be refreshed ({1}): connect again.").format(
				doc.name, exc
			)
		) from None
	return _store_tokens(doc, data)


def _token_request(doc: Any, body: dict) -> dict:
	client_id = (doc.oauth_client_id or "").strip()
	secret = (
		doc.get_password("oauth_client_secret", raise_exception=False) if doc.oauth_client_secret else None
	)
	auth = None
	body = {**body, "client_id": client_id}
	if secret:
		if (doc.oauth_client_registration_method or "") == "client_secret_basic":
			auth = (client_id, secret)
			body.pop("client_id")
		else:
			body["client_secret"] = secret
	return _post_json(doc.oauth_token_endpoint, form=body, auth=auth, what=_("The token request"))


def _store_tokens(doc: Any, data: dict) -> str:
	token = _dig(data, doc.oauth_token_response_path or "access_token")
	if not token or not isinstance(token, str):
		raise MCPClientError(_("The token response of {0} contains no access token.").format(doc.name))
	values: dict = {"oauth_access_token": token, "oauth_status": "Connected"}
	if data.get("refresh_token"):
		values["oauth_refresh_token"] = data["refresh_token"]
	expires_in = cint(data.get("expires_in"))
	values["oauth_token_expires_at"] = add_to_date(now_datetime(), seconds=expires_in) if expires_in else None
	oauth2.store_tokens(doc, values)  # committed: a rotated refresh token is single-use
	return token


def _set_status(doc: Any, status: str) -> None:
	doc.db_set("oauth_status", status)
	frappe.db.commit()


# --- HTTP ----------------------------------------------------------------------------------------


def _http():
	import httpx

	return httpx.Client(timeout=HTTP_TIMEOUT, follow_redirects=False)


def _get_json(url: str) -> dict | None:
	try:
		with _http() as client:
			response = client.get(url, headers={"Accept": "application/json"})
	except Exception:
		return None
	if response.status_code != 200 or len(response.content) > MAX_RESPONSE_BYTES:
		return None
	try:
		data = response.json()
	except ValueError:
		return None
	return data if isinstance(data, dict) else None


def _post_json(
	url: str, *, what: str, json_body: dict | None = None, form: dict | None = None, auth=None
) -> dict:
	try:
		with _http() as client:
			response = client.post(
				url, json=json_body, data=form, auth=auth, headers={"Accept": "application/json"}
			)
	except Exception as exc:
		raise MCPClientError(
			_("{0} to {1} failed: {2}").format(what, _origin(url), type(exc).__name__)
		) from None
	try:
		data = response.json()
	except ValueError:
		data = None
	if response.status_code >= 400 or not isinstance(data, dict):
		detail = oauth2.token_error(data)
		raise MCPClientError(
			_("{0} to {1} failed with HTTP {2}{3}").format(
				what, _origin(url), response.status_code, f": {detail}" if detail else ""
			)
		)
	return data


def _origin(url: str) -> str:
	parts = urlsplit(url)
	return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def _with_path(url: str, path: str) -> str:
	parts = urlsplit(url)
	return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _dig(data: dict, path: str) -> Any:
	value: Any = data
	for key in path.split("."):
		value = value.get(key) if isinstance(value, dict) else None
	return value
