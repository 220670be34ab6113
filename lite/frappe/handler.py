"""`/api/method/<cmd>`: run a whitelisted function and build the response (json, binary, download...)."""

from __future__ import annotations

import inspect
import json
import mimetypes
import os
import sys
from typing import Any

from werkzeug.utils import redirect as _redirect
from werkzeug.wrappers import Response

import frappe
from frappe import _, is_whitelisted
from frappe.utils.response import json_handler


def handle() -> Response:
	"""Run `frappe.form_dict.cmd` and answer `{"message": <return value>}`."""
	cmd = frappe.local.form_dict.cmd
	data = None
	if cmd != "login":
		data = execute_cmd(cmd)
	elif _wants_html() and frappe.form_dict.get("redirect-to"):
		from frappe.www.login import sanitize_redirect

		return _redirect(sanitize_redirect(frappe.form_dict.get("redirect-to")) or "/", code=302)
	if data is not None:
		if isinstance(data, Response):
			return data
		frappe.response["message"] = data
	return build_response("json")


def _wants_html() -> bool:
	"""A browser form post (not fetch/XHR asking for JSON)."""
	accept = frappe.get_request_header("Accept") or ""
	return "text/html" in accept and "application/json" not in accept


def execute_cmd(cmd: str, from_async: bool = False) -> Any:
	"""Resolve `cmd` (after `override_whitelisted_methods`), check it may be called, call it."""
	for hook in frappe.get_hooks("override_whitelisted_methods", {}).get(cmd, []):
		cmd = hook
		break
	try:
		method = get_attr(cmd)
	except Exception as e:
		frappe.throw(_("Failed to get method for command {0} with {1}").format(cmd, e))
	if method is not run_doc_method:
		is_whitelisted(method)
		is_valid_http_method(method)
	check_required_arguments(method, frappe.form_dict)
	return frappe.call(method, **frappe.form_dict)


def check_required_arguments(method, arguments: dict) -> None:
	"""Name a missing required argument (HTTP 417) instead of letting the call fail with a TypeError (500)."""
	try:
		parameters = inspect.signature(method).parameters.values()
	except (TypeError, ValueError):
		return
	missing = [
		p.name
		for p in parameters
		if p.default is p.empty
		and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
		and p.name not in arguments
	]
	if missing:
		frappe.throw(_("Missing argument: {0}").format(", ".join(missing)), frappe.ValidationError)


def is_valid_http_method(method) -> None:
	"""Refuse HTTP methods the function was not whitelisted for (`methods=[...]`)."""
	if frappe.flags.in_safe_exec or not frappe.local.request:
		return
	target = getattr(method, "__func__", method)
	allowed = frappe.allowed_http_methods_for_whitelisted_func.get(target)
	if allowed and frappe.local.request.method not in allowed:
		throw_permission_error()


def throw_permission_error() -> None:
	frappe.throw(_("Not permitted"), frappe.PermissionError)


def get_attr(cmd: str):
	"""The function named by `cmd` (a dotted path, or a function of this module)."""
	if "." in cmd:
		return frappe.get_attr(cmd)
	if cmd in (
		"version",
		"logout",
		"web_logout",
		"upload_file",
		"download_file",
		"ping",
		"run_doc_method",
		"runserverobj",
	):
		return globals()[cmd]
	raise AttributeError(cmd)


@frappe.whitelist(allow_guest=True)
def version() -> str:
	return frappe.__version__


@frappe.whitelist(allow_guest=True)
def ping() -> str:
	return "pong"


@frappe.whitelist(allow_guest=True)
def logout() -> None:
	"""End the current session."""
	frappe.local.login_manager.logout()
	frappe.db.commit()


@frappe.whitelist(allow_guest=True)
def web_logout() -> None:
	frappe.local.login_manager.logout()
	frappe.db.commit()
	from frappe.website.utils import respond_as_web_page

	respond_as_web_page(
		_("Logged Out"),
		_("You have been successfully logged out"),
		indicator_color="green",
		primary_action="/login",
		primary_label=_("Login"),
	)


@frappe.whitelist(allow_guest=True)
def upload_file():
	"""Save the multipart `file` as a File document (attached to `doctype`/`docname` if given)."""
	if frappe.session.user == "Guest":
		raise frappe.PermissionError
	from frappe.utils.file_manager import save_file

	form = frappe.form_dict
	files = frappe.request.files if frappe.request else {}
	if "file" not in files:
		frappe.throw(_("No file attached"))
	upload = files["file"]
	content = upload.stream.read()
	filename = form.file_name or upload.filename
	if form.doctype and form.docname:
		frappe.get_doc(form.doctype, form.docname).check_permission("write")
	elif not frappe.has_permission("File", "create"):
		raise frappe.PermissionError
	df = form.fieldname or None
	return save_file(
		filename,
		content,
		form.doctype or None,
		form.docname or None,
		is_private=frappe.utils.cint(form.is_private),
		df=df,
	)


@frappe.whitelist(allow_guest=True)
def download_file(file_url: str) -> None:
	"""Send a File's content as a download (private files only to those who may read them)."""
	from frappe.website.files import can_read_file

	name = frappe.db.get_value("File", {"file_url": file_url}, "name")
	if not name:
		raise frappe.DoesNotExistError(_("File not found"))
	file = frappe.get_doc("File", name)
	if file.is_private and not can_read_file(file):
		raise frappe.PermissionError
	frappe.local.response.filename = os.path.basename(file_url)
	frappe.local.response.filecontent = file.get_content()
	frappe.local.response.type = "download"


def run_doc_method(
	method: str,
	docs: Any = None,
	dt: str | None = None,
	dn: str | None = None,
	arg: Any = None,
	args: Any = None,
) -> None:
	"""Call a whitelisted controller method of a document (`frm.call` from forms)."""
	from inspect import getfullargspec

	if not args and arg:
		args = arg
	if dt:
		doc = frappe.get_doc(dt, dn or dt)
	else:
		doc = frappe.get_doc(frappe.parse_json(docs))
		doc._original_modified = doc.modified
		doc.check_if_latest()
	if not doc.has_permission("read"):
		throw_permission_error()
	try:
		args = frappe.parse_json(args)
	except ValueError:
		pass
	method_obj = getattr(doc, method)
	fn = getattr(method_obj, "__func__", method_obj)
	is_whitelisted(fn)
	is_valid_http_method(fn)
	fnargs = getfullargspec(method_obj).args
	if not fnargs or fnargs == ["self"]:
		response = doc.run_method(method)
	elif "args" in fnargs or not isinstance(args, dict):
		response = doc.run_method(method, args)
	else:
		response = doc.run_method(method, **args)
	frappe.response.docs.append(doc)
	if response is not None:
		frappe.response["message"] = response


runserverobj = run_doc_method


# ---------------------------------------------------------------------------------------------
# responses


def build_response(response_type: str | None = None) -> Response:
	"""A werkzeug Response from `frappe.response` (type json, binary, download, redirect, page)."""
	response_type = frappe.local.response.get("type") or response_type or "json"
	builders = {
		"json": as_json,
		"binary": as_binary,
		"download": as_raw,
		"redirect": redirect,
		"page": as_page,
		"txt": as_txt,
	}
	return builders.get(response_type, as_json)()


def as_json() -> Response:
	if "docs" in frappe.local.response and not frappe.local.response.docs:
		del frappe.local.response["docs"]
	make_logs()
	response = Response()
	status = frappe.local.response.pop("http_status_code", None)
	if status:
		response.status_code = int(status)
	frappe.local.response.pop("type", None)
	response.mimetype = "application/json"
	response.charset = "utf-8"
	response.data = json.dumps(frappe.local.response, default=json_handler, separators=(",", ":"))
	return response


def as_binary() -> Response:
	response = Response()
	response.mimetype = "application/octet-stream"
	response.headers["Content-Disposition"] = _disposition(
		"filename", frappe.response.get("filename") or "file"
	)
	response.data = frappe.response.get("filecontent") or b""
	return response


def as_raw() -> Response:
	filename = frappe.response.get("filename") or "file"
	response = Response()
	response.mimetype = (
		frappe.response.get("content_type") or mimetypes.guess_type(filename)[0] or "application/unknown"
	)
	response.headers["Content-Disposition"] = _disposition(
		frappe.response.get("display_content_as") or "attachment", filename
	)
	response.data = frappe.response.get("filecontent") or b""
	return response


def as_txt() -> Response:
	response = Response()
	response.mimetype = "text/plain"
	response.charset = "utf-8"
	response.data = frappe.response.get("message") or ""
	return response


def redirect() -> Response:
	return _redirect(frappe.response.get("location") or "/", code=302)


def as_page() -> Response:
	"""The message page of `frappe.respond_as_web_page`, or the www page in `frappe.response.route`."""
	from frappe.website.page_renderers.message_page import MessagePage
	from frappe.website.serve import get_response

	if (frappe.response.get("route") or "message") == "message":
		return MessagePage("message", frappe.response.get("http_status_code") or 200).render()
	return get_response(
		frappe.response.get("route") or "message",
		http_status_code=frappe.response.get("http_status_code") or 200,
	)


def _disposition(kind: str, filename: str) -> str:
	safe = str(filename).replace('"', "").replace("\r", "").replace("\n", "")
	return f'{kind}; filename="{safe}"'


def make_logs() -> None:
	"""Move queued messages (and, for system users, tracebacks) into the response."""
	response = frappe.local.response
	if getattr(frappe.local, "error_log", None) and is_traceback_allowed():
		response["exc"] = json.dumps([str(d) for d in frappe.local.error_log])
	if frappe.local.message_log:
		response["_server_messages"] = json.dumps(
			[json.dumps(d, default=json_handler) for d in frappe.local.message_log]
		)
	if frappe.local.debug_log and frappe.conf.get("developer_mode"):
		response["_debug_messages"] = json.dumps(frappe.local.debug_log)


def report_error(status_code: int) -> Response:
	"""The JSON error body: exc_type, _server_messages, and the traceback for system managers."""
	exc_type, exc_value, _tb = sys.exc_info()
	allow_traceback = (
		is_traceback_allowed()
		and not frappe.flags.disable_traceback
		and (status_code != 404 or frappe.conf.get("logging"))
	)
	if exc_type:
		frappe.local.response["exc_type"] = exc_type.__name__
		if allow_traceback:
			frappe.local.error_log.append(frappe.get_traceback())
		if allow_traceback or (status_code < 500 and exc_value is not None and str(exc_value)):
			frappe.local.response["exception"] = f"{exc_type.__module__}.{exc_type.__name__}: {exc_value}"
		if status_code < 500 and not frappe.local.message_log and str(exc_value or ""):
			frappe.local.message_log.append(
				frappe._dict(message=str(exc_value), indicator="red", raise_exception=1)
			)
	frappe.local.response["http_status_code"] = status_code
	return as_json()


def is_traceback_allowed() -> bool:
	"""Only Administrator and System Managers ever see tracebacks."""
	user = frappe.session.user if getattr(frappe.local, "session", None) else "Guest"
	if not user or user == "Guest" or not getattr(frappe.local, "db", None):
		return False
	try:
		return user == "Administrator" or "System Manager" in frappe.get_roles(user)
	except Exception:
		return False
