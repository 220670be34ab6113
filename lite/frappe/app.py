"""The WSGI application: one request = init site, authenticate, dispatch, commit or roll back, destroy."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from html import escape

from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.wrappers import Request, Response

import frappe
from frappe import _

UNSAFE_HTTP_METHODS = frozenset(("POST", "PUT", "DELETE", "PATCH"))
MAX_CONTENT_LENGTH = 100 * 1024 * 1024


def make_app(site: str, sites_path: str | None = None) -> Callable:
	"""A WSGI callable that serves one site."""
	sites_path = os.path.abspath(sites_path or frappe.get_sites_path())

	def app(environ, start_response):
		request = Request(environ)
		response = handle_request(request, site, sites_path)
		return response(environ, start_response)

	return app


def application(environ, start_response):
	"""WSGI entry for `gunicorn frappe.app:application`: site from $FRAPPE_SITE or the Host header."""
	request = Request(environ)
	sites_path = frappe.get_sites_path()
	site = get_site_name(request, sites_path)
	if not site:
		response = Response(
			json.dumps({"exc_type": "IncorrectSitePath", "exception": "No site for this host"}),
			status=404,
			mimetype="application/json",
		)
	else:
		response = handle_request(request, site, sites_path)
	return response(environ, start_response)


def get_site_name(request: Request, sites_path: str) -> str | None:
	site = os.environ.get("FRAPPE_SITE")
	if site:
		return site
	# werkzeug's request.host refuses names like "test_site"; a folder name is all that matters here
	host = (request.host or request.environ.get("HTTP_HOST") or "").split(":")[0].strip()
	if (
		host
		and "/" not in host
		and "\\" not in host
		and not host.startswith(".")
		and os.path.isdir(os.path.join(sites_path, host))
	):
		return host
	return None


def handle_request(request: Request, site: str, sites_path: str) -> Response:
	"""Serve one request for `site` in a fresh frappe context."""
	request.max_content_length = MAX_CONTENT_LENGTH
	response = None
	rollback = True
	try:
		init_request(request, site, sites_path)
		from frappe.auth import validate_auth

		validate_auth()
		response = dispatch(request)
		rollback = after_request(rollback)
	except HTTPException as e:
		response = (
			e.get_response(request.environ)
			if not isinstance(e, NotFound)
			else handle_exception(frappe.PageDoesNotExistError(_("Not Found")), request)
		)
	except Exception as e:
		response = handle_exception(e, request)
	finally:
		if getattr(frappe.local, "db", None) and rollback:
			try:
				frappe.db.rollback()
			except Exception:
				pass
		if response is not None and getattr(frappe.local, "cookie_manager", None):
			frappe.local.cookie_manager.flush_cookies(response=response)
		if getattr(frappe.local, "initialised", None):
			frappe.destroy()
	return response


def init_request(request: Request, site: str, sites_path: str) -> None:
	frappe.init(site, sites_path, force=True)
	frappe.local.request = request
	frappe.local.is_ajax = request.headers.get("X-Requested-With") == "XMLHttpRequest"
	frappe.connect(set_admin_as_user=False)
	frappe.local.session = frappe._dict(user="Guest", sid="Guest", data=frappe._dict())
	make_form_dict(request)
	from frappe.auth import HTTPRequest

	frappe.local.http_request = HTTPRequest()


def make_form_dict(request: Request) -> None:
	"""Query string, form fields and a JSON object body, merged into `frappe.form_dict`."""
	args = frappe._dict(request.args.to_dict())
	if request.method in UNSAFE_HTTP_METHODS or request.content_length:
		if request.is_json:
			body = request.get_data(as_text=True)
			if body:
				try:
					data = json.loads(body)
				except ValueError:
					frappe.throw(_("Invalid JSON body"))
				if isinstance(data, dict):
					args.update(data)
		else:
			args.update(request.form.to_dict())
	args.pop("_", None)
	frappe.local.form_dict = args


def dispatch(request: Request) -> Response:
	path = request.path
	if path.startswith("/api/"):
		from frappe.api import handle

		return handle(request)
	if frappe.form_dict.cmd:
		from frappe.handler import handle

		return handle()
	if path.startswith("/assets/"):
		from frappe.website.files import serve_asset

		return serve_asset(path)
	if path.startswith("/files/"):
		from frappe.website.files import serve_public_file

		return serve_public_file(path)
	if path.startswith("/private/files/"):
		from frappe.website.files import download_private_file

		return download_private_file(path)
	if request.method in ("GET", "HEAD", "POST"):
		from frappe.website.serve import get_response

		return get_response()
	raise NotFound


def after_request(rollback: bool) -> bool:
	"""Commit what the request wrote (and the session's refresh); False when nothing is left to roll back."""
	session_obj = getattr(frappe.local, "session_obj", None)
	if session_obj:
		session_obj.update()
	if frappe.db and (
		frappe.db.transaction_writes
		or frappe.flags.commit
		or frappe.local.request.method in UNSAFE_HTTP_METHODS
	):
		frappe.db.commit()
	return False


def handle_exception(e: Exception, request: Request) -> Response:
	"""Frappe's status code for the exception; JSON for the API and AJAX, a message page otherwise."""
	try:
		return _handle_exception(e, request)
	except Exception:
		_log_server_error(e)
		status = getattr(e, "http_status_code", 500)
		return Response(
			json.dumps({"exc_type": type(e).__name__}), status=status, mimetype="application/json"
		)


def _handle_exception(e: Exception, request: Request) -> Response:
	from frappe.handler import report_error

	status = getattr(e, "http_status_code", 500)
	if not getattr(frappe.local, "initialised", None):
		return Response(
			json.dumps({"exc_type": type(e).__name__}), status=status, mimetype="application/json"
		)
	if not getattr(frappe.local, "session", None) or not frappe.session.user:
		frappe.local.session = frappe._dict(user="Guest", sid="Guest", data=frappe._dict())
	accept = request.headers.get("Accept") or ""
	form_dict = getattr(frappe.local, "form_dict", None) or {}
	respond_as_json = (
		request.path.startswith("/api/")
		or getattr(frappe.local, "is_ajax", False)
		or "application/json" in accept
		or bool(form_dict.get("cmd"))
	)
	if type(e) is frappe.AuthenticationError and getattr(frappe.local, "login_manager", None):
		frappe.local.login_manager.clear_cookies()
	if status >= 500:
		_log_server_error(e)
	if respond_as_json:
		return report_error(status)
	return _error_page(e, status)


def _error_page(e: Exception, status: int) -> Response:
	from frappe.website.page_renderers.message_page import MessagePage

	titles = {
		401: _("Session Expired"),
		403: _("Not Permitted"),
		404: _("Not Found"),
		429: _("Too Many Requests"),
	}
	frappe.local.message_title = titles.get(status) or (_("Server Error") if status >= 500 else _("Error"))
	message = escape(str(e)) if status < 500 else ""
	if status >= 500 and _traceback_allowed():
		message = "<pre>" + escape(frappe.get_traceback()) + "</pre>"
	frappe.local.message = message or frappe.local.message_title
	frappe.local.response["context"] = dict(indicator_color="red")
	try:
		return MessagePage("message", status).render()
	except Exception:
		return Response(frappe.local.message_title, status=status, mimetype="text/plain")


def _traceback_allowed() -> bool:
	from frappe.handler import is_traceback_allowed

	return is_traceback_allowed()


def _log_server_error(e: Exception) -> None:
	"""Keep server errors in the log (never in a response to non-system users)."""
	try:
		frappe.logger("frappe.web").exception(
			"%s %s failed", frappe.local.request.method, frappe.local.request.path
		)
	except Exception:
		pass


def _request_handler(quiet: bool):
	"""Werkzeug's handler with TCP_NODELAY, so keep-alive clients don't wait ~40 ms per response."""
	import socket

	from werkzeug.serving import WSGIRequestHandler

	class RequestHandler(WSGIRequestHandler):
		protocol_version = "HTTP/1.1"  # keep-alive; werkzeug chunks responses without a length

		def setup(self):
			super().setup()
			self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

		def log_request(self, *args, **kwargs):
			if not quiet:
				super().log_request(*args, **kwargs)

	return RequestHandler


def make_server(
	site: str, host: str = "127.0.0.1", port: int = 0, sites_path: str | None = None, quiet: bool = True
):
	"""A threaded WSGI server for `site` (port 0 picks a free one: see `server.server_port`)."""
	from werkzeug.serving import make_server as _make_server

	return _make_server(
		host, int(port), make_app(site, sites_path), threaded=True, request_handler=_request_handler(quiet)
	)


def serve(
	site: str,
	host: str = "127.0.0.1",
	port: int = 8000,
	threaded: bool = True,
	sites_path: str | None = None,
	use_reloader: bool = False,
) -> None:
	"""Run the development server for `site`."""
	from werkzeug.serving import run_simple

	run_simple(
		host,
		int(port),
		make_app(site, sites_path),
		threaded=threaded,
		use_reloader=use_reloader,
		use_debugger=False,
		request_handler=_request_handler(quiet=False),
	)
