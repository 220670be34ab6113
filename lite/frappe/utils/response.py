"""HTTP responses built from `frappe.response` (json, download, binary, page, redirect) and JSON encoding."""

import datetime
import decimal
import json
import mimetypes
import os
import sys
import uuid
from collections.abc import Iterable
from pathlib import Path
from re import Match
from urllib.parse import quote

import werkzeug.utils
from werkzeug.exceptions import Forbidden, NotFound
from werkzeug.local import LocalProxy
from werkzeug.wrappers import Response
from werkzeug.wsgi import wrap_file

import frappe
from frappe import _

DateOrTimeTypes = datetime.date | datetime.datetime | datetime.time


def report_error(status_code):
	"""Build error. Show traceback in developer mode"""
	allow_traceback = is_traceback_allowed() and (status_code != 404 or frappe.conf.logging)

	traceback = frappe.utils.get_traceback()
	exc_type, exc_value, _tb = sys.exc_info()

	if allow_traceback:
		frappe.errprint(traceback)
		frappe.response.exception = traceback.splitlines()[-1]
	frappe.response["exc_type"] = exc_type.__name__ if exc_type else None

	response = build_response("json")
	response.status_code = status_code

	return response


def is_traceback_allowed():
	"""Frappe's rule; Lite has no System Settings, so "Show Full Error" (allow_error_traceback) is always
	on, its default."""
	from frappe.permissions import is_system_user

	return bool(
		getattr(frappe.local, "db", None)
		and (not frappe.local.flags.disable_traceback or frappe._dev_server)
		and is_system_user()
	)


def build_response(response_type=None):
	if "docs" in frappe.local.response and not frappe.local.response.docs:
		del frappe.local.response["docs"]

	response_type_map = {
		"txt": as_txt,
		"download": as_raw,
		"json": as_json,
		"page": as_page,
		"redirect": redirect,
		"binary": as_binary,
	}

	return response_type_map[frappe.response.get("type") or response_type]()


def as_txt():
	response = Response()
	response.mimetype = "text"
	filename = f"{frappe.response['doctype']}.txt"
	filename = filename.encode("utf-8").decode("unicode-escape", "ignore")
	response.headers.add("Content-Disposition", "attachment", filename=filename)
	response.data = frappe.response["result"]
	return response


def as_raw():
	response = Response()
	response.mimetype = (
		frappe.response.get("content_type")
		or mimetypes.guess_type(frappe.response["filename"])[0]
		or "application/unknown"
	)
	filename = frappe.response["filename"].encode("utf-8").decode("unicode-escape", "ignore")
	response.headers.add(
		"Content-Disposition",
		frappe.response.get("display_content_as", "attachment"),
		filename=filename,
	)
	response.data = frappe.response["filecontent"]
	return response


def as_json():
	make_logs()

	response = Response()
	if frappe.local.response.http_status_code:
		response.status_code = frappe.local.response["http_status_code"]
		del frappe.local.response["http_status_code"]

	response.mimetype = "application/json"
	response.data = json.dumps(frappe.local.response, default=json_handler, separators=(",", ":"))
	return response


def as_binary():
	response = Response()
	response.mimetype = "application/octet-stream"
	filename = frappe.response["filename"]
	filename = filename.encode("utf-8").decode("unicode-escape", "ignore")
	response.headers.add("Content-Disposition", None, filename=filename)
	response.data = frappe.response["filecontent"]
	return response


def make_logs():
	"""make strings for msgprint and errprint"""
	response = frappe.local.response

	if frappe.local.error_log and is_traceback_allowed():
		response["exc"] = json.dumps([frappe.utils.cstr(d["exc"]) for d in frappe.local.error_log])

	if frappe.local.message_log:
		response["_server_messages"] = json.dumps(
			[json.dumps(d, default=json_handler) for d in frappe.local.message_log]
		)

	if frappe.local.debug_log:
		response["_debug_messages"] = json.dumps(frappe.local.debug_log)

	if frappe.flags.error_message:
		response["_error_message"] = frappe.flags.error_message


def json_handler(obj):
	"""serialize non-serializable data for json"""
	if isinstance(obj, DateOrTimeTypes):
		return str(obj)

	elif isinstance(obj, datetime.timedelta):
		return str(obj)

	elif isinstance(obj, LocalProxy):
		return str(obj)

	elif hasattr(obj, "__json__"):
		return obj.__json__()

	elif isinstance(obj, Iterable):
		return list(obj)

	elif isinstance(obj, decimal.Decimal):
		return float(obj)

	elif isinstance(obj, Match):
		return obj.string

	elif type(obj) is type or isinstance(obj, Exception):
		return repr(obj)

	elif callable(obj):
		return repr(obj)

	elif isinstance(obj, uuid.UUID):
		return str(obj)

	elif isinstance(obj, Path):
		return str(obj)

	elif hasattr(obj, "__value__"):
		return obj.__value__()

	else:
		raise TypeError(f"""Object of type {type(obj)} with value of {obj!r} is not JSON serializable""")


def as_page():
	"""print web page"""
	from frappe.website.serve import get_response

	return get_response(frappe.response["route"], http_status_code=frappe.response.get("http_status_code"))


def redirect():
	return werkzeug.utils.redirect(frappe.response.location)


def download_private_file(path: str) -> Response:
	"""Checks permissions and sends back private file"""
	from frappe.core.doctype.file.utils import find_file_by_url

	if frappe.session.user == "Guest":
		raise Forbidden(_("You don't have permission to access this file"))

	file = find_file_by_url(path, name=frappe.form_dict.fid)
	if not file:
		raise Forbidden(_("You don't have permission to access this file"))

	return send_private_file(path.split("/private", 1)[1])


def send_private_file(path: str) -> Response:
	path = os.path.join(frappe.local.conf.get("private_path", "private"), path.strip("/"))
	filename = os.path.basename(path)

	if frappe.local.request.headers.get("X-Use-X-Accel-Redirect"):
		path = "/protected/" + path
		response = Response()
		response.headers["X-Accel-Redirect"] = quote(frappe.utils.encode(path))
		response.headers["Cache-Control"] = "private,max-age=3600,stale-while-revalidate=86400"

	else:
		filepath = frappe.utils.get_site_path(path)
		try:
			f = open(filepath, "rb")  # noqa: SIM115 - closed by the response
		except OSError:
			raise NotFound from None

		response = Response(wrap_file(frappe.local.request.environ, f), direct_passthrough=True)

	# no need for content disposition and force download. let browser handle its opening.
	# Except for those that can be injected with scripts (Lite: also XHTML, XSL, JavaScript, any +xml),
	# and never sniffed into another type.
	if _is_scriptable_file(filename):
		response.headers.add("Content-Disposition", "attachment", filename=filename)
	response.headers["X-Content-Type-Options"] = "nosniff"

	response.mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"

	return response


_SCRIPTABLE_EXTENSIONS = frozenset(
	{".svg", ".html", ".htm", ".xml", ".xhtml", ".xht", ".xsl", ".xslt", ".js", ".mjs"}
)
_SCRIPTABLE_MIMETYPES = frozenset(
	{"text/html", "text/xml", "text/xsl", "text/javascript", "application/javascript"}
)


def _is_scriptable_file(filename: str) -> bool:
	"""Whether a browser opening `filename` inline would run it as a page or script (sent as a download)."""
	mimetype = mimetypes.guess_type(filename)[0] or ""
	return (
		os.path.splitext(filename)[1].lower() in _SCRIPTABLE_EXTENSIONS
		or mimetype in _SCRIPTABLE_MIMETYPES
		or mimetype.endswith(("+xml", "/xml"))
	)
