"""Website helpers: HTML responses, message pages, the home page."""

from __future__ import annotations

import mimetypes

from werkzeug.wrappers import Response

import frappe


def build_response(path, data, http_status_code, headers: dict | None = None) -> Response:
	"""An HTML (or guessed mimetype) response for a rendered page."""
	response = Response()
	response.data = data if isinstance(data, bytes) else str(data).encode("utf-8")
	response.status_code = http_status_code
	response.headers["X-Page-Name"] = path.encode("ascii", errors="xmlcharrefreplace").decode("ascii")
	mimetype = mimetypes.guess_type(path)[0] if "." in path.rsplit("/", 1)[-1] else None
	response.mimetype = mimetype or "text/html"
	response.charset = "utf-8"
	response.headers["Cache-Control"] = "no-store, no-cache, must-revalidate"
	for key, value in (headers or {}).items():
		response.headers[key] = value
	return response


def get_home_page() -> str:
	"""The route of "/": the last `home_page` hook, else /me for users and /login for Guest."""
	home = frappe.get_hooks("home_page")
	if home:
		return home[-1].strip("/")
	return "login" if frappe.session.user == "Guest" else "me"
