"""service_client: authenticated, SSRF-safe calls to an integration service's API."""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import urlsplit

import frappe
from frappe import _

from huf.ai.http.safe_client import HttpRequestError, safe_request
from huf.ai.integrations import oauth
from huf.ai.integrations.catalog import service_label
from huf.ai.integrations.settings import credentials_spec, recipient_id, resolve_settings

MAX_RETRY_AFTER = 30
BEARER_KEYS = ("token", "bot_token", "api_key", "access_token")


class IntegrationError(frappe.ValidationError):
	"""A service call failed; the message is readable text for the model, never a secret."""

	status: int | None = None
	detail: str = ""


def service_client(service: str, settings: str | None = None, user: str | None = None) -> ServiceClient:
	"""A client of `service` with the named settings, else the default active settings the user may use."""
	settings_doc = resolve_settings(service, settings, user)
	return ServiceClient(frappe.get_doc("Integration Service", service), settings_doc)


class ServiceClient:
	def __init__(self, service_doc, settings_doc):
		self._service, self._settings = service_doc, settings_doc
		self.service = service_doc.name
		self.settings_name = settings_doc.name
		self.base_url = (settings_doc.base_url or service_doc.api_base_url or "").rstrip("/")
		self._own_base_url = bool(settings_doc.base_url)
		if not self.base_url:
			frappe.throw(_("The {0} settings {1} need a Base URL.").format(self.service, self.settings_name))

	def credential(self, key: str) -> str:
		for row in self._settings.credentials:
			if row.key == key and row.value:
				return row.get_password("value")
		frappe.throw(
			_("The {0} settings {1} have no credential {2}: add it in Integrations.").format(
				self.service, self.settings_name, key
			)
		)

	def has_credential(self, key: str) -> bool:
		return any(row.key == key and row.value for row in self._settings.credentials)

	def recipient(self, value: str) -> str:
		return recipient_id(self._settings, value)

	def _secrets(self) -> list[str]:
		values = [
			row.get_password("value", raise_exception=False)
			for row in self._settings.credentials
			if row.value
		]
		return [str(v) for v in values if v and len(str(v)) >= 4]

	def _bearer_key(self) -> str:
		spec = credentials_spec(self._service)
		for key in [c["key"] for c in spec if c.get("secret", True)] + list(BEARER_KEYS):
			if self.has_credential(key):
				return key
		return spec[0]["key"] if spec else "token"

	def _base(self, api_base: str | None) -> str:
		"""The base URL of a call: the settings' own Base URL, else `api_base`, else the service's."""
		return self.base_url if self._own_base_url or not api_base else api_base.rstrip("/")

	def _url(self, path: str, auth: bool, api_base: str | None = None) -> str:
		path, base = path or "", self._base(api_base)
		if path.startswith(("http://", "https://")):
			if urlsplit(path).netloc.lower() != urlsplit(base).netloc.lower():
				raise IntegrationError(
					_("{0} requests may only go to {1}.").format(self.service, urlsplit(base).netloc)
				)
			return path
		if path and not path.startswith("/"):
			path = "/" + path
		if auth and self._service.auth_type == "Bot Token in URL":
			path = f"/bot{self.credential(self._bearer_key())}{path}"
		return base + path

	def _auth_headers(self, force_refresh: bool = False, credential: str | None = None) -> dict:
		kind = self._service.auth_type
		if kind == "Bearer Token":
			return {"Authorization": f"Bearer {self.credential(credential or self._bearer_key())}"}
		if kind == "Bot Token":
			return {"Authorization": f"Bot {self.credential(credential or self._bearer_key())}"}
		if kind == "API Key Header":
			key = self.credential(credential or self._bearer_key())
			return {self._service.auth_header_name or "X-API-Key": key}
		if kind == "Basic":
			raw = f"{self.credential('username')}:{self.credential('password')}".encode()
			return {"Authorization": "Basic " + base64.b64encode(raw).decode()}
		if kind == "Frappe Token":
			return {"Authorization": f"token {self.credential('api_key')}:{self.credential('api_secret')}"}
		if kind == "OAuth 2.0":
			return {"Authorization": f"Bearer {oauth.access_token(self._settings, force_refresh)}"}
		return {}

	def request(
		self,
		method,
		path,
		*,
		params=None,
		json=None,
		data=None,
		headers=None,
		auth=True,
		raw=False,
		api_base=None,
		credential=None,
	):
		"""Call the API; returns parsed JSON (or text with raw=True); errors raise IntegrationError.

		`api_base`: the base URL of another API of the same service for this call, a constant of the tool
		(Google Maps' Places and Routes APIs beside its Geocoding API); the settings' own Base URL, when
		set, replaces it as it replaces the service's. `credential`: the key of the credential to send
		instead of the default one (Bearer, Bot and API key authentication), e.g. Slack's user_token."""
		url = self._url(path, auth, api_base)
		refreshed = False
		for attempt in range(2):
			send = {**_default_headers(self._service), **(headers or {})}
			secret = self._auth_headers(force_refresh=refreshed, credential=credential) if auth else {}
			try:
				response = safe_request(
					method, url, params=params, json=json, data=data, headers=send, secret_headers=secret
				)
			except HttpRequestError as e:
				raise IntegrationError(
					self._clean(_("{0} could not be reached: {1}").format(self._label(), e))
				) from None
			if (
				response.status_code == 401
				and auth
				and self._service.auth_type == "OAuth 2.0"
				and not refreshed
			):
				refreshed = True
				continue
			wait = _retry_after(response)
			if response.status_code in (429, 503) and attempt == 0 and wait is not None:
				time.sleep(wait)
				continue
			break
		if not response.ok:
			detail = self._clean(self._error_detail(response))
			error = IntegrationError(
				_("{0} answered {1}: {2}").format(self._label(), response.status_code, detail)
			)
			error.status, error.detail = response.status_code, detail
			raise error
		if raw:
			return response.text
		try:
			return response.json()
		except Exception:
			return response.text

	def _label(self) -> str:
		return service_label(self.service)

	def _error_detail(self, response) -> str:
		message = None
		try:
			body = response.json()
		except Exception:
			body = None
		if isinstance(body, dict):
			for key in ("error_description", "message", "description", "error", "detail", "exc_type"):
				value = body.get(key)
				if isinstance(value, dict):
					value = value.get("message") or value.get("status") or json.dumps(value)[:300]
				if value:
					message = str(value)
					break
		elif response.text.strip() and len(response.text) < 300 and "<" not in response.text:
			message = response.text.strip()
		from http import HTTPStatus

		try:
			reason = HTTPStatus(response.status_code).phrase
		except ValueError:
			reason = "error"
		return message or reason

	def _clean(self, text: str) -> str:
		for secret in self._secrets():
			text = text.replace(secret, "***")
		return text


def _default_headers(service_doc) -> dict:
	value = service_doc.get("default_headers")
	try:
		value = json.loads(value) if isinstance(value, str) else value
	except ValueError:
		return {}
	return value if isinstance(value, dict) else {}


def _retry_after(response) -> float | None:
	value = response.headers.get("retry-after") or response.headers.get("Retry-After")
	try:
		seconds = float(value)
	except (TypeError, ValueError):
		return None
	return seconds if 0 <= seconds <= MAX_RETRY_AFTER else None
