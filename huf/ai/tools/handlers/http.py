"""GET and POST tools: requests through the SSRF-safe client, the tool's headers only for its Base URL's host.

Network and SSRF failures come back to the model as `success: False` with `error` and `suggestion`.
"""

import json as jsonlib
from typing import Any
from urllib.parse import urlsplit

import frappe
from frappe import _

from huf.ai.http.safe_client import (
	DEFAULT_MAX_BYTES,
	DEFAULT_TIMEOUT,
	BlockedURLError,
	HttpRequestError,
	SafeResponse,
	port_of,
	safe_request,
)
from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.spec import ToolSpec
from huf.huf.capability_access import name_missing_read_capability


def http_request(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	"""GET/POST through the SSRF-safe client (the tool's headers go only to its Base URL's host)."""
	return call_http_tool(
		spec.record or spec.name,
		spec.types,
		args.get("url"),
		params=args.get("params") if spec.types == "GET" else None,
		json_data=args.get("json_data") if spec.types == "POST" else None,
	)


def tool_config(tool: str | Any) -> tuple[str | None, dict]:
	"""(base_url, secret headers) of a GET/POST Agent Tool Function."""
	doc = frappe.get_doc("Agent Tool Function", tool) if isinstance(tool, str) else tool
	headers = {
		row.key: value
		for row in doc.get("http_headers") or []
		if row.key and (value := row.get_password("value", raise_exception=False))
	}
	return (doc.get("base_url") or "").strip() or None, headers


def resolve_tool_url(base_url: str | None, url: str | None) -> str:
	"""The URL to call: relative URLs are joined to base_url; absolute ones must share its origin."""
	url = (url or "").strip()
	if not base_url:
		return url
	if not url:
		return base_url
	base = urlsplit(base_url)
	if not urlsplit(url).scheme:
		return base_url.rstrip("/") + "/" + url.lstrip("/")
	target = urlsplit(url)
	same_origin = (
		target.scheme.lower() == base.scheme.lower()
		and (target.hostname or "").lower() == (base.hostname or "").lower()
		and port_of(target) == port_of(base)
	)
	if not same_origin:
		raise BlockedURLError(
			_("This tool may only call {0}; pass a path relative to it instead of {1}.").format(base_url, url)
		)
	return url


def call_http_tool(
	tool: str | Any,
	method: str,
	url: str | None = None,
	*,
	headers: dict | None = None,
	params: dict | None = None,
	data: Any = None,
	json_data: Any = None,
	timeout: float = DEFAULT_TIMEOUT,
	max_bytes: int | None = None,
) -> dict:
	"""Run a GET/POST Agent Tool Function call and return the AI-friendly result dict (never raises
	for network or SSRF failures: they come back as `success: False` with `error` and `suggestion`)."""
	base_url, tool_headers = tool_config(tool)
	try:
		target = resolve_tool_url(base_url, url)
		base = urlsplit(base_url) if base_url else None
		secret_host = f"{(base.hostname or '').lower()}:{port_of(base)}" if base else None
		response = safe_request(
			method,
			target,
			headers=_as_dict(headers, "headers"),
			params=_as_dict(params, "params"),
			data=data,
			json=json_data,
			timeout=timeout,
			max_bytes=max_bytes or _max_bytes(),
			secret_headers=tool_headers if secret_host else None,
			secret_headers_host=secret_host,
		)
	except BlockedURLError as exc:
		return failure(str(exc), _("Use a public https URL of the service this tool is meant for."))
	except HttpRequestError as exc:
		return failure(str(exc), _("Check the URL and try again; the service may be down or slow."))
	return response_to_result(response)


def response_to_result(response: SafeResponse) -> dict:
	"""The standard result dict: success, status_code, headers, data (JSON or text), final_url."""
	is_json = "json" in response.headers.get("content-type", "")
	data: Any = response.text
	if is_json and not response.truncated:
		try:
			data = response.json()
		except ValueError:
			pass
	result = {
		"success": response.ok,
		"status_code": response.status_code,
		"headers": {k: v for k, v in response.headers.items() if k not in ("set-cookie",)},
		"data": data,
		"final_url": response.url,
	}
	if response.truncated:
		result["truncated"] = True
		result["note"] = _("The response was cut at {0} bytes.").format(len(response.content))
	if response.status_code >= 400:
		result["error"] = _("The server answered HTTP {0}.").format(response.status_code)
		result["suggestion"] = _SUGGESTIONS.get(
			response.status_code,
			_("Check the URL, the parameters and whether the request needs authentication."),
		)
	return result


_SUGGESTIONS = {
	400: "The server rejected the parameters or body; check their names and format.",
	401: "The service needs authentication; the tool's headers may be missing or wrong.",
	403: "The service refused access with these credentials.",
	404: "The path does not exist; check the URL.",
	429: "The service is rate-limiting requests; wait before retrying.",
	500: "The service failed internally; try again later.",
	502: "The service is unreachable behind its gateway; try again later.",
	503: "The service is unavailable; try again later.",
}


def failure(error: str, suggestion: str) -> dict:
	return {"success": False, "error": error, "suggestion": suggestion}


def _as_dict(value: Any, what: str) -> dict | None:
	if value in (None, ""):
		return None
	if isinstance(value, str):
		try:
			value = jsonlib.loads(value)
		except ValueError:
			raise HttpRequestError(_("{0} must be a JSON object.").format(what)) from None
	if not isinstance(value, dict):
		raise HttpRequestError(_("{0} must be a JSON object.").format(what))
	return value


def _max_bytes() -> int:
	try:
		return int(frappe.conf.get("huf_http_max_response_bytes") or DEFAULT_MAX_BYTES)
	except (TypeError, ValueError):
		return DEFAULT_MAX_BYTES


def usable_tool(tool_name: str | None, method: str) -> Any:
	"""The GET/POST Agent Tool Function `tool_name`, if the session user may use it for `method` (reading it
	needs tools.use)."""
	if frappe.session.user == "Guest":
		frappe.throw(_("Please log in to use HTTP tools."), frappe.PermissionError)
	if not tool_name or not frappe.db.exists("Agent Tool Function", tool_name):
		frappe.throw(
			_("A GET or POST Agent Tool Function is required (tool_name); free URLs are not proxied."),
			frappe.PermissionError,
		)
	doc = frappe.get_doc("Agent Tool Function", tool_name)
	if not frappe.has_permission("Agent Tool Function", "read", doc=doc):
		name_missing_read_capability("Agent Tool Function")
		frappe.throw(_("You are not allowed to use tool {0}.").format(tool_name), frappe.PermissionError)
	if doc.types not in ("GET", "POST"):
		frappe.throw(_("Tool {0} is not an HTTP tool.").format(tool_name), frappe.PermissionError)
	if doc.types != method:
		frappe.throw(
			_("Tool {0} makes {1} requests, not {2}.").format(tool_name, doc.types, method),
			frappe.PermissionError,
		)
	return doc
