"""The test site served over HTTP on 127.0.0.1 in a thread, through Frappe's own WSGI `application`.

As `bench serve` does, the application is wrapped with Frappe's static files (`application_with_statics`:
`/assets/...`, `/files/...`), so a browser gets the built dashboard; the site is named by the
`X-Frappe-Site-Name` header, as a reverse proxy names it.
"""

from __future__ import annotations

import threading

import frappe


class _SiteHeader:
	"""WSGI middleware that names the site in `X-Frappe-Site-Name`, as a reverse proxy would."""

	def __init__(self, app, site: str):
		self.app, self.site = app, site

	def __call__(self, environ, start_response):
		environ["HTTP_X_FRAPPE_SITE_NAME"] = self.site
		return self.app(environ, start_response)


def _with_statics():
	"""Frappe's `application` behind its static files, leaving `frappe.app.application` as it was."""
	import frappe.app

	original = frappe.app.application
	try:
		return frappe.app.application_with_statics()
	finally:
		frappe.app.application = original


def serve_site(site: str | None = None) -> tuple:
	"""Serve `site` (default: the current one) on a free loopback port; returns (server, base_url).

	Requests run in their own threads with their own Frappe context and database connection, so they
	see only what the test committed. Call `server.shutdown()` when done (e.g. with addClassCleanup).
	"""
	from werkzeug.serving import make_server

	server = make_server(
		"127.0.0.1", 0, _SiteHeader(_with_statics(), site or frappe.local.site), threaded=True
	)
	threading.Thread(target=server.serve_forever, daemon=True).start()
	return server, f"http://127.0.0.1:{server.server_port}"


def server_messages(response) -> str:
	"""The messages of a Frappe JSON error response (`message`, else `_server_messages`), joined."""
	import json

	body = response.json()
	if isinstance(body.get("message"), str):
		return body["message"]
	return " ".join(
		json.loads(m).get("message", "") for m in json.loads(body.get("_server_messages") or "[]")
	)


def api_token(user: str) -> str:
	"""An `Authorization` value (`token key:secret`) for `user`: new API keys, committed."""
	from frappe.core.doctype.user.user import generate_keys

	secret = generate_keys(user)["api_secret"]
	key = frappe.db.get_value("User", user, "api_key")
	frappe.db.commit()
	return f"token {key}:{secret}"


def api_clients(test_class, *users: str | None, path: str = "", timeout: float = 60) -> list:
	"""Serve the site for `test_class` and return one `httpx.Client` per user, each signed in with new
	API keys (None: a guest), based at the site's URL + `path`; all are closed and the server stopped
	at the class's cleanup. The site's URL is kept as `test_class.base_url`."""
	import httpx

	server, base = serve_site()
	test_class.addClassCleanup(server.shutdown)
	test_class.base_url = base
	clients = []
	for user in users:
		headers = {"Authorization": api_token(user)} if user else {}
		client = httpx.Client(base_url=base + path, headers=headers, timeout=timeout)
		test_class.addClassCleanup(client.close)
		clients.append(client)
	return clients
