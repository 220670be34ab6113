"""Serving sites without a bench: Frappe's WSGI `application` behind the static files, in werkzeug or gunicorn.

`production_app()` is the WSGI factory of `huf serve --production` (gunicorn
`frappe_lite.server:production_app()`): the site is `$FRAPPE_SITE`, the sites folder `$SITES_PATH` (or the
working directory), as on a bench.

On a bench nginx names the client: it overwrites `X-Forwarded-For` with the address it was connected
from, and Frappe takes `request_ip` from that header. Here `ClientAddress` plays that part: the header
counts only when the request comes from a trusted proxy (`trusted_proxies`), so a client cannot choose
its own address (per-address limits: login attempts, webhook calls).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import threading

import frappe
import frappe.app

from frappe_lite.json_body import JsonBody
from frappe_lite.static import StaticFiles

TRUSTED_PROXIES_ENV = "HUF_TRUSTED_PROXIES"
# headers a client could use to pose as another address or scheme; kept only from a trusted proxy
FORWARDING_HEADERS = (
	"HTTP_X_FORWARDED_FOR",
	"HTTP_X_REAL_IP",
	"HTTP_REMOTE_ADDR",
	"HTTP_X_FORWARDED_PROTO",
	"HTTP_X_FORWARDED_HOST",
)


class ClientAddress:
	"""WSGI middleware: the client's address is the socket's unless the peer is a trusted proxy.

	From a trusted proxy, `X-Forwarded-For` is reduced to the nearest address (from the right) that is
	not itself a trusted proxy; from anyone else, the forwarding headers are dropped, so Frappe's
	`request_ip` is the socket's address. Trusted proxies: `$HUF_TRUSTED_PROXIES` (comma separated),
	else the site config `trusted_proxies` (a list); addresses or networks (`10.0.0.0/8`).
	"""

	def __init__(self, app, site: str | None = None):
		self.app, self.site = app, site  # None: the site `frappe.app` serves (production), if named

	def __call__(self, environ, start_response):
		proxies = trusted_proxies(self.site or frappe.app._site)
		trusted = bool(proxies) and is_trusted(environ.get("REMOTE_ADDR"), proxies)
		client = forwarded_client(environ.get("HTTP_X_FORWARDED_FOR") or "", proxies) if trusted else None
		for header in ("HTTP_X_FORWARDED_FOR", "HTTP_REMOTE_ADDR") if trusted else FORWARDING_HEADERS:
			environ.pop(header, None)
		if client:
			environ["HTTP_X_FORWARDED_FOR"] = client  # the one address Frappe's request_ip reads
		return self.app(environ, start_response)


def trusted_proxies(site: str | None = None) -> list:
	"""The trusted proxies' networks, from the environment or the site config (read at most once a minute)."""
	value = os.environ.get(TRUSTED_PROXIES_ENV)
	if value is None:
		sites_path = _sites_path()
		site_path = os.path.join(sites_path, site) if site else None
		if site_path and not os.path.isdir(site_path):
			site_path = None
		value = frappe.get_site_config(sites_path, site_path, cached=True).get("trusted_proxies") or []
	if isinstance(value, str):
		value = value.split(",")
	networks = []
	for entry in value:
		try:
			networks.append(ipaddress.ip_network(str(entry).strip(), strict=False))
		except ValueError:
			continue  # not an address: trusts nobody
	return networks


def is_trusted(address: str | None, proxies: list) -> bool:
	"""Whether `address` is in one of the trusted networks."""
	try:
		ip = ipaddress.ip_address((address or "").strip())
	except ValueError:
		return False
	return any(ip in network for network in proxies)


def forwarded_client(header: str, proxies: list) -> str | None:
	"""The client named by the trusted proxies: the right-most address of `X-Forwarded-For` that is not
	a trusted proxy (what the first trusted proxy saw); None when that entry is not an address."""
	hops = [hop.strip() for hop in header.split(",") if hop.strip()]
	for hop in reversed(hops):
		if not is_trusted(hop, proxies):
			try:
				return str(ipaddress.ip_address(hop))
			except ValueError:
				return None
	return hops[0] if hops else None


class SiteHeader:
	"""WSGI middleware that names the site in `X-Frappe-Site-Name`, as a reverse proxy would."""

	def __init__(self, app, site: str):
		self.app, self.site = app, site

	def __call__(self, environ, start_response):
		environ["HTTP_X_FRAPPE_SITE_NAME"] = self.site
		return self.app(environ, start_response)


def site_application(site: str | None = None):
	"""Frappe's `application` with static files, the client's address and unparsable JSON bodies refused,
	for `site` (else the site from the request)."""
	app = StaticFiles(
		lambda environ, start_response: frappe.app.application(environ, start_response), _sites_path
	)
	app = ClientAddress(JsonBody(app), site)
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


def first_request(app) -> threading.Thread:
	"""Send `GET /api/method/ping` through `app` in a background thread, as a process starts serving.

	Frappe runs no app code when a web process starts; its apps' `before_request` hooks run with the
	first request. This one comes at start instead of with the first client's request, so what apps
	prepare there (Huf imports its AI libraries in the background) is ready sooner, and this process's
	caches and database connection are warm. Its response is discarded; a failure changes nothing.
	"""
	from werkzeug.test import EnvironBuilder

	def send():
		environ = EnvironBuilder(path="/api/method/ping", base_url="http://127.0.0.1/").get_environ()
		environ["REMOTE_ADDR"] = "127.0.0.1"
		try:
			response = app(environ, lambda status, headers, exc_info=None: None)
			try:
				for _chunk in response:
					pass
			finally:
				getattr(response, "close", lambda: None)()
		except Exception:
			frappe.logger("frappe.web", allow_site=False).error(
				"first request at start failed", exc_info=True
			)

	thread = threading.Thread(target=send, name="frappe-first-request", daemon=True)
	thread.start()
	return thread


def serve(site: str, host: str = "127.0.0.1", port: int = 8000, sites_path: str = ".") -> None:
	"""Run the development server for `site` (threaded, no reloader)."""
	from werkzeug.serving import run_simple

	frappe.app._sites_path = os.path.abspath(sites_path)
	app = site_application(site)
	first_request(app)
	run_simple(
		host,
		int(port),
		app,
		threaded=True,
		use_reloader=False,
		use_debugger=False,
		request_handler=request_handler(quiet=False),
	)


def production_app():
	"""The WSGI application gunicorn serves (`huf serve --production`), loaded by each worker process."""
	frappe.app._site = os.environ.get("FRAPPE_SITE") or None
	app = site_application()
	if frappe.app._site:
		first_request(app)
	return app
