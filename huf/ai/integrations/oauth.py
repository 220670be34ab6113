"""OAuth 2.0 of Integration Settings (Google): authorization code + PKCE, callback and token refresh.

The state, PKCE and token storage are the ones the MCP client uses (`huf.ai.http.oauth2`). The endpoints
are `huf.api.integrations.start_oauth` and `oauth_callback`; the redirect URI registered with the provider
is CALLBACK, the published path hooks.py maps to `oauth_callback`.
"""

import secrets
from urllib.parse import urlencode

import frappe
from frappe import _
from frappe.utils import add_to_date, get_url, now_datetime

from huf.ai.http import oauth2
from huf.ai.http.safe_client import safe_request
from huf.ai.integrations.settings import may_manage

CALLBACK = "/api/method/huf.ai.integrations.oauth.callback"
STATE_KIND = "integration"


def _client_credentials(settings) -> tuple[str, str]:
	values = {row.key: row for row in settings.credentials}
	if "client_id" not in values or "client_secret" not in values:
		frappe.throw(_("Add the credentials client_id and client_secret of your OAuth app first."))
	return values["client_id"].get_password("value"), values["client_secret"].get_password("value")


def redirect_uri() -> str:
	return get_url(CALLBACK)


def start(doc) -> dict:
	"""The URL the user opens to grant access ("Connect Google") for the Integration Settings `doc` (the
	caller checked write on it)."""
	service = frappe.get_doc("Integration Service", doc.service)
	if service.auth_type != "OAuth 2.0" or not service.oauth_authorize_url:
		frappe.throw(_("{0} does not use OAuth 2.0.").format(service.name))
	client_id, _secret = _client_credentials(doc)
	verifier = secrets.token_urlsafe(64)
	state = oauth2.remember_state(STATE_KIND, {"settings": doc.name, "verifier": verifier})
	params = {
		"client_id": client_id,
		"redirect_uri": redirect_uri(),
		"response_type": "code",
		"scope": service.oauth_scopes or "",
		"state": state,
		"code_challenge": oauth2.pkce_challenge(verifier),
		"code_challenge_method": "S256",
		"access_type": "offline",
		"prompt": "consent",
	}
	return {"authorize_url": f"{service.oauth_authorize_url}?{urlencode(params)}"}


def callback(code: str | None = None, state: str | None = None, error: str | None = None) -> None:
	"""The provider's redirect: only with the one-time state issued to the same user (who still manages
	integrations and may write the settings), exchange the code for tokens, then back to the dashboard."""
	pending = oauth2.take_state(STATE_KIND, state)
	if not pending or pending["user"] != frappe.session.user or not may_manage():
		frappe.throw(_("This authorization link is invalid or expired; start again."), frappe.PermissionError)
	doc = frappe.get_doc("Integration Settings", pending["settings"])
	doc.check_permission("write")
	if error or not code:
		oauth2.store_tokens(
			doc, {"oauth_status": _("Authorization refused: {0}").format(error or _("no code"))}
		)
	else:
		grant = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri()}
		_token_request(doc, {**grant, "code_verifier": pending["verifier"]})
	frappe.local.response["type"] = "redirect"
	frappe.local.response["location"] = f"/huf/integrations/{doc.service}"


def _token_request(doc, grant: dict) -> None:
	"""Exchange `grant` at the service's token URL; the tokens (or the refusal, as oauth_status) stored."""
	service = frappe.get_doc("Integration Service", doc.service)
	client_id, client_secret = _client_credentials(doc)
	response = safe_request(
		"POST",
		service.oauth_token_url,
		data={**grant, "client_id": client_id, "client_secret": client_secret},
		headers={"Accept": "application/json"},
	)
	try:
		body = response.json()
	except Exception:
		body = {}
	if not response.ok or not isinstance(body, dict) or not body.get("access_token"):
		reason = oauth2.token_error(body)
		status = _("Token refresh failed ({0} {1}); connect again.").format(response.status_code, reason)
		oauth2.store_tokens(doc, {"oauth_status": status})
		frappe.throw(
			_("{0} refused the authorization ({1}): connect the account again.").format(
				doc.service, reason or response.status_code
			)
		)
	values = {
		"oauth_status": _("Connected"),
		"oauth_access_token": body["access_token"],
		"oauth_expires_at": add_to_date(now_datetime(), seconds=int(body.get("expires_in") or 3600)),
	}
	if body.get("refresh_token"):
		values["oauth_refresh_token"] = body["refresh_token"]
	oauth2.store_tokens(doc, values)


def access_token(doc, force_refresh: bool = False) -> str:
	"""A valid access token of the settings, refreshed when expiring (or when forced after a 401)."""
	token = doc.get_password("oauth_access_token", raise_exception=False) if doc.oauth_access_token else None
	soon = not doc.oauth_expires_at or oauth2.needs_refresh(doc.oauth_expires_at)
	if token and not force_refresh and not soon:
		return token
	refresh = (
		doc.get_password("oauth_refresh_token", raise_exception=False) if doc.oauth_refresh_token else None
	)
	if not refresh:
		if token and not force_refresh:
			return token
		frappe.throw(
			_("{0} is not connected: use Connect in the Integrations dashboard.").format(doc.service)
		)
	_token_request(doc, {"grant_type": "refresh_token", "refresh_token": refresh})
	return doc.get_password("oauth_access_token")
