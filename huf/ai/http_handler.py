"""HTTP tools over REST (the spec's module): run a GET or POST Agent Tool Function the caller may read.

Not an open proxy: guests are refused and every request goes through the tool (its Base URL, its
headers) and the SSRF-safe client (`huf.ai.http.safe_client`), whose URL check is handed on here under
the spec's name `validate_url` (it raises BlockedURLError for a URL the client refuses).
"""

import json as jsonlib
from typing import Any

import frappe
from frappe import _

from huf.ai.http.safe_client import validate_url
from huf.ai.tools.handlers.http import call_http_tool, failure, usable_tool

__all__ = ["handle_get_request", "handle_http_request", "handle_post_request", "validate_url"]


@frappe.whitelist(methods=["POST"])
def handle_http_request(
	method: str,
	url: str | None = None,
	headers: dict | str | None = None,
	params: dict | str | None = None,
	data: dict | str | None = None,
	json_data: Any = None,
	tool_name: str | None = None,
) -> dict:
	"""Run a request through the GET/POST tool `tool_name` (its base_url and headers apply)."""
	method = (method or "").upper()
	doc = usable_tool(tool_name, method)
	if isinstance(json_data, str) and json_data.strip():
		try:
			json_data = jsonlib.loads(json_data)
		except ValueError:
			return failure(_("json_data is not valid JSON."), _("Send a JSON object or array."))
	return call_http_tool(doc, method, url, headers=headers, params=params, data=data, json_data=json_data)


@frappe.whitelist(methods=["POST"])
def handle_get_request(
	url: str | None = None,
	headers: dict | str | None = None,
	params: dict | str | None = None,
	tool_name: str | None = None,
) -> dict:
	"""GET through the tool `tool_name`."""
	return handle_http_request("GET", url, headers=headers, params=params, tool_name=tool_name)


@frappe.whitelist(methods=["POST"])
def handle_post_request(
	url: str | None = None,
	headers: dict | str | None = None,
	data: dict | str | None = None,
	json_data: Any = None,
	tool_name: str | None = None,
) -> dict:
	"""POST through the tool `tool_name`; a `data` string holding JSON is sent as JSON."""
	if json_data is None and isinstance(data, str):
		try:
			json_data, data = jsonlib.loads(data), None
		except ValueError:
			pass
	return handle_http_request(
		"POST", url, headers=headers, data=data, json_data=json_data, tool_name=tool_name
	)
