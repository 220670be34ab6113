"""http_request: one HTTP request through the SSRF-safe client, settings filled from the flow context.

Without `tool` the request goes to `url` as given (public hosts only, like agents' HTTP tools). With
`tool` (a GET or POST Agent Tool Function the acting user may read, of the same method) the URL is
resolved against the tool's Base URL and the tool's secret headers are sent to that host only: keep
secrets there, since every Huf user can read flow definitions. The output is the result dict
(`success`, `status_code`, `headers`, `data`, `final_url`); a refused URL, a network error or a
status of 400 or more fails the node (on_failure edges apply).
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt

from huf.ai.flows import context as flow_context
from huf.ai.flows.graph import config_value
from huf.ai.flows.nodes.base import FAILURE, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.ai.http.safe_client import (
	DEFAULT_MAX_BYTES,
	DEFAULT_TIMEOUT,
	BlockedURLError,
	HttpRequestError,
	safe_request,
)
from huf.ai.tools.handlers.http import call_http_tool, failure, response_to_result, usable_tool

MAX_TIMEOUT = 120.0


def http_request(call: NodeCall) -> NodeResult:
	label = _("The settings of node {0}").format(call.node_id)
	settings = {
		key: flow_context.interpolate(call.config.get(key), call.context, label)
		for key in ("url", "headers", "params", "json", "body", "data")
	}
	tool = config_value(call.config, "tool", "tool_name")
	method = str(config_value(call.config, "method", default="") or "").strip().upper()
	body = settings["body"] if settings["body"] is not None else settings["data"]
	json_data = settings["json"]
	if isinstance(body, dict | list) and json_data is None:
		json_data, body = body, None
	timeout = min(flt(call.config.get("timeout")) or DEFAULT_TIMEOUT, MAX_TIMEOUT)
	headers = settings["headers"] or None
	if headers is not None and not isinstance(headers, dict):
		return NodeResult(status=FAILURE, error=_("{0}: headers must be an object.").format(label))
	if tool:
		types = frappe.db.get_value("Agent Tool Function", str(tool), "types")
		doc = usable_tool(str(tool), method or types or "GET")  # the acting user may read it, same method
		result = call_http_tool(
			doc,
			doc.types,
			settings["url"],
			headers=headers,
			params=settings["params"],
			data=body,
			json_data=json_data,
			timeout=timeout,
		)
	else:
		result = plain_request(
			method or "GET", settings["url"], headers, settings["params"], body, json_data, timeout
		)
	if not result.get("success"):
		return NodeResult(status=FAILURE, output=result, error=result.get("error") or _("the request failed"))
	return NodeResult(output=result)


def plain_request(
	method: str, url: Any, headers: dict | None, params: Any, body: Any, json_data: Any, timeout: float
) -> dict:
	"""A request without a tool: the result dict, or a failure dict for a refused URL or a network error."""
	try:
		response = safe_request(
			method,
			url,
			headers=headers,
			params=params or None,
			data=body,
			json=json_data,
			timeout=timeout,
			max_bytes=cint(frappe.conf.get("huf_http_max_response_bytes")) or DEFAULT_MAX_BYTES,
		)
	except BlockedURLError as exc:
		return failure(str(exc), _("Flows may call public http(s) hosts only (or those the site allows)."))
	except HttpRequestError as exc:
		return failure(str(exc), _("Check the URL and try again; the service may be down or slow."))
	return response_to_result(response)


EXECUTORS = {"http_request": http_request}

SCHEMAS = {
	"http_request": node_schema(
		"HTTP request",
		"Globe",
		"integration",
		"Calls a web service through the SSRF-safe client.",
		setting(
			"method",
			"Method",
			"select",
			"",
			options=["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"],
			default="GET",
		),
		setting(
			"url",
			"URL",
			"string",
			"The URL, or with a tool a path under its Base URL.",
			required=True,
			supports_variables=True,
		),
		setting(
			"headers",
			"Headers",
			"json",
			"An object (keep secrets in a tool's headers).",
			supports_variables=True,
		),
		setting("params", "Query parameters", "json", "An object.", supports_variables=True),
		setting("json", "JSON body", "json", "Sent as JSON.", supports_variables=True),
		setting(
			"body",
			"Body",
			"text",
			"Sent as it is (an object or list is sent as JSON).",
			supports_variables=True,
		),
		setting("timeout", "Timeout (seconds)", "number", "At most 120.", default=30),
		setting("tool", "Tool", "tool_select", "A GET or POST tool whose Base URL and secret headers apply."),
	),
}
