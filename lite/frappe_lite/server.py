"""Serving sites without a bench: Frappe's WSGI `application` behind the static files, in werkzeug or gunicorn.

`production_app()` is the WSGI factory of `huf serve --production` (gunicorn
`frappe_lite.server:production_app()`): the site is `$FRAPPE_SITE`, the sites folder `$SITES_PATH` (or the
working directory), as on a bench.
"""

from __future__ import annotations

import os
import socket

import frappe.app

from frappe_lite.static import StaticFiles


class SiteHeader:
	"""WSGI middleware that names the site in `X-Frappe-Site-Name`, as a reverse proxy would."""

	def __init__(self, app, site: str):
		self.app, self.site = app, site

	def __call__(self, environ, start_response):
		environ["HTTP_X_FRAPPE_SITE_NAME"] = self.site
		return self.app(environ, start_response)


def site_application(site: str | None = None):
	"""Frappe's `application` with static files, for `site` (else the site from the request)."""
	app = StaticFiles(
		lambda environ, start_response: frappe.app.application(environ, start_response), _sites_path
	)
	return SiteHeader(app, site) if site else app


def _sites_path() -> str:
	return frappe.app._sites_path


def request_handler(quiet: bool):
	"""Werkzeug's handler with TCP_NODELAY, so keep-alive clients don't wait ~40 ms per response."""
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


def make_server(site: str, host: str = "127.0.0.1", port: int = 0, quiet: bool = True):
	"""A threaded WSGI server for `site` of `frappe.app._sites_path` (port 0: see `server.server_port`)."""
	from werkzeug.serving import make_server as _make_server

	return _make_server(
		host, int(port), site_application(site), threaded=True, request_handler=request_handler(quiet)
	)


def serve(site: str, host: str = "127.0.0.1", port: int = 8000, sites_path: str = ".") -> None:
	"""Run the development server for `site` (threaded, no reloader)."""
	from werkzeug.serving import run_simple

	frappe.app._sites_path = os.path.abspath(sites_path)
	run_simple(
		host,
		int(port),
		site_application(site),
		threaded=True,
		use_reloader=False,
		use_debugger=False,
		request_handler=request_handler(quiet=False),
	)


def production_app():
	"""The WSGI application gunicorn serves (`huf serve --production`)."""
	frappe.app._site = os.environ.get("FRAPPE_SITE") or None
	return site_application()
