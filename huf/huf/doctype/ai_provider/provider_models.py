"""The models an AI Provider offers: GET <base>/models of its OpenAI-compatible API, through the SSRF-safe client.

The base is the provider's API Base URL, else its route's public API (huf.ai.providers.routes). The key
goes only to that host and never into a message or the answer.
"""

import json
import re

import frappe
from frappe import _

from huf.ai.http.safe_client import HttpRequestError, safe_request
from huf.ai.providers.calls import get_provider_config
from huf.ai.providers.routes import route_for

LIST_TIMEOUT = 20.0
MAX_BYTES = 4 * 1024 * 1024
# a base that already ends with its API version (".../v1", ".../v1beta/openai"): the list is at <base>/models
_VERSIONED = re.compile(r"/v\d+[a-z0-9]*(/openai)?/?$")


class ModelListError(frappe.ValidationError):
	"""The provider's models could not be read; the message says why (the provider's own words if any)."""


def models_url(provider: str) -> str:
	"""Where the provider lists its models, or ModelListError saying why it cannot."""
	config = get_provider_config(provider)
	route = route_for(config.provider_type, config.name)
	if route and not route.lists_models:
		raise ModelListError(
			_("{0} has no OpenAI-compatible model list: type the model name as {0} names it.").format(
				route.label
			)
		)
	base = (config.api_base or (route.openai_base if route else "")).rstrip("/")
	if not base:
		raise ModelListError(
			_(
				"Huf does not know where {0} lists its models: set its Base URL, or type the model name."
			).format(config.name)
		)
	return f"{base}/models" if _VERSIONED.search(base) else f"{base}/v1/models"


def list_models(provider: str) -> list[str]:
	"""The model ids the provider's `/models` answers with, sorted; ModelListError with the provider's error."""
	config = get_provider_config(provider)
	url = models_url(provider)
	secret = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
	try:
		response = safe_request(
			"GET", url, headers={"Accept": "application/json"}, secret_headers=secret, timeout=LIST_TIMEOUT,
			max_bytes=MAX_BYTES,
		)  # fmt: skip
	except HttpRequestError as e:
		raise ModelListError(
			_("{0} could not be reached at {1}: {2}").format(
				config.name, url, _masked(str(e), config.api_key)
			)
		) from None
	payload = _json(response.content)
	if not response.ok:
		raise ModelListError(
			_("{0} answered {1}: {2}").format(
				config.name, response.status_code, _masked(_error_text(payload, response), config.api_key)
			)
		)
	rows = payload.get("data") if isinstance(payload, dict) else payload
	if not isinstance(rows, list):
		raise ModelListError(_("{0} did not answer with a list of models at {1}.").format(config.name, url))
	ids = {str(row.get("id") if isinstance(row, dict) else row).strip() for row in rows}
	return sorted(i for i in ids if i and i != "None")


def _json(content: bytes):
	try:
		return json.loads(content or b"null")
	except ValueError:
		return None


def _error_text(payload, response) -> str:
	"""The provider's own error message (OpenAI's {"error": {"message"}} and its variants), else the body."""
	if isinstance(payload, dict):
		error = payload.get("error", payload)
		if isinstance(error, dict):
			error = error.get("message") or error.get("detail") or error.get("msg")
		if isinstance(error, str) and error.strip():
			return error.strip()[:500]
		if isinstance(payload.get("detail"), str):
			return payload["detail"][:500]
	text = response.content.decode(response.encoding, "replace").strip()
	return text[:500] or _("no details")


def _masked(text: str, secret: str | None) -> str:
	return text.replace(secret, "***") if secret and len(secret) >= 4 else text
