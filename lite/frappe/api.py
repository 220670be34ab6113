"""REST API v1: `/api/method/<cmd>` and `/api/resource/<DocType>[/<name>]`."""

from __future__ import annotations

import json
from typing import Any

from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

import frappe
from frappe import _


def handle(request: Request) -> Response:
	"""Dispatch an /api/ request and wrap the result as `{"data": ...}` (or the method's response)."""
	from frappe.handler import build_response

	try:
		endpoint, arguments = API_URL_MAP.bind_to_environ(request.environ).match()
	except NotFound as e:
		raise frappe.DoesNotExistError(_("Not Found")) from e
	except MethodNotAllowed as e:
		raise frappe.MethodNotAllowed(_("Method not allowed")) from e
	data = endpoint(**arguments)
	if isinstance(data, Response):
		return data
	if data is not None:
		frappe.response["data"] = data
	return build_response("json")


def handle_rpc_call(method: str) -> Response:
	from frappe.handler import handle

	frappe.form_dict.cmd = method.split("/")[0]
	return handle()


def document_list(doctype: str) -> list:
	"""GET /api/resource/<DocType>: `frappe.client.get_list` with JSON query parameters."""
	from frappe.client import get_list

	form = frappe.form_dict
	for key in ("fields", "filters", "or_filters"):
		if isinstance(form.get(key), str):
			form[key] = _loads(form[key], key)
	if isinstance(form.get("order_by"), str) and not form.order_by.strip():
		form.pop("order_by")
	form.setdefault("limit_page_length", form.limit or form.limit_page_length or 20)
	form.pop("limit", None)
	for key in ("as_dict", "debug"):
		if form.get(key) is not None:
			form[key] = str(form[key]).lower() not in ("0", "false", "no", "")
	form.pop("debug", None)
	form.pop("cmd", None)
	return frappe.call(get_list, doctype, **form)


def create_doc(doctype: str):
	"""POST /api/resource/<DocType>: insert a new document from the body."""
	data = get_request_form_data()
	data.pop("doctype", None)
	doc = frappe.new_doc(doctype)
	doc.update(_strip_protected(data))
	return doc.insert()


def read_doc(doctype: str, name: str):
	"""GET /api/resource/<DocType>/<name> (Password fields stay masked)."""
	if "run_method" in frappe.form_dict:
		return execute_doc_method(doctype, name)
	doc = frappe.get_doc(doctype, name)
	doc.check_permission("read")
	doc.apply_fieldlevel_read_permissions()
	return doc


def update_doc(doctype: str, name: str):
	"""PUT /api/resource/<DocType>/<name>: update fields; a stale `modified` is refused (TimestampMismatchError)."""
	data = get_request_form_data()
	doc = frappe.get_doc(doctype, name)
	data.pop("flags", None)
	modified = data.pop("modified", None)
	data.pop("name", None)
	doc.update(_strip_protected(data))
	if modified:
		doc._original_modified = modified
	doc.save()
	if doc.get("parenttype"):
		frappe.get_doc(doc.parenttype, doc.parent).save()
	return doc


def delete_doc(doctype: str, name: str) -> str:
	"""DELETE /api/resource/<DocType>/<name>."""
	frappe.delete_doc(doctype, name, ignore_missing=False)
	frappe.response.http_status_code = 202
	# Frappe v14 answered {"message": "ok"}, v15's v1 API {"data": "ok"}: clients of both work
	frappe.response["message"] = "ok"
	return "ok"


def execute_doc_method(doctype: str, name: str, method: str | None = None) -> Any:
	"""Run a whitelisted controller method (`run_method`): GET needs read, POST write."""
	from frappe.handler import is_valid_http_method

	method = method or frappe.form_dict.pop("run_method")
	doc = frappe.get_doc(doctype, name)
	fn = getattr(doc, method, None)
	target = getattr(fn, "__func__", fn)
	if not fn or target not in frappe.whitelisted:
		frappe.throw(_("Method {0} not whitelisted").format(method), frappe.PermissionError)
	is_valid_http_method(target)
	doc.check_permission("read" if frappe.request.method == "GET" else "write")
	return frappe.call(fn, **frappe.form_dict)


def get_request_form_data() -> frappe._dict:
	data = frappe.form_dict.get("data")
	if data is None:
		body = frappe.request.get_data(as_text=True)
		if body and frappe.request.is_json:
			data = body
		else:
			data = {k: v for k, v in frappe.form_dict.items() if k != "cmd"}
	try:
		parsed = frappe.parse_json(data)
	except ValueError:
		parsed = frappe.form_dict
	if not isinstance(parsed, dict):
		frappe.throw(_("Request body must be a JSON object"))
	return frappe._dict(parsed)


def _strip_protected(data: dict) -> dict:
	"""Fields a client never sets directly on the document."""
	return {
		k: v for k, v in data.items() if k not in ("doctype", "owner", "creation", "modified_by", "flags")
	}


def _loads(value: str, key: str) -> Any:
	try:
		return json.loads(value)
	except ValueError:
		if key == "fields":
			return [f.strip() for f in value.split(",") if f.strip()]
		frappe.throw(_("Invalid JSON in {0}").format(key))


url_rules = [
	Rule("/api/method/<path:method>", endpoint=handle_rpc_call),
	Rule("/api/resource/<doctype>", methods=["GET"], endpoint=document_list),
	Rule("/api/resource/<doctype>", methods=["POST"], endpoint=create_doc),
	Rule("/api/resource/<doctype>/<path:name>", methods=["GET"], endpoint=read_doc),
	Rule("/api/resource/<doctype>/<path:name>", methods=["PUT"], endpoint=update_doc),
	Rule("/api/resource/<doctype>/<path:name>", methods=["DELETE"], endpoint=delete_doc),
	Rule("/api/resource/<doctype>/<path:name>", methods=["POST"], endpoint=execute_doc_method),
]

API_URL_MAP = Map(url_rules, strict_slashes=False, merge_slashes=False)
