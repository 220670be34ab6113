"""Website helpers: HTML responses, message pages, the home page."""

from __future__ import annotations

import mimetypes

from werkzeug.wrappers import Response

import frappe
from frappe import _


def build_response(
	path: str, data: str | bytes, http_status_code: int = 200, headers: dict | None = None
) -> Response:
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


def respond_as_web_page(
	title: str,
	html: str,
	success: bool | None = None,
	http_status_code: int | None = None,
	context: dict | None = None,
	indicator_color: str | None = None,
	primary_action: str = "/",
	primary_label: str | None = None,
	fullpage: bool = False,
	width: int | None = None,
	template: str = "message",
) -> None:
	"""Make this request answer with a simple message page (rendered by the website)."""
	frappe.local.message_title = title
	frappe.local.message = html
	frappe.local.response["type"] = "page"
	frappe.local.response["route"] = template
	if http_status_code:
		frappe.local.response["http_status_code"] = http_status_code
	context = dict(context or {})
	if not indicator_color:
		indicator_color = "green" if success else ("red" if success is False else "blue")
	context.update(
		indicator_color=indicator_color,
		primary_label=primary_label or _("Home"),
		primary_action=primary_action,
		fullpage=fullpage,
		width=width,
	)
	frappe.local.response["context"] = context


def get_home_page() -> str:
	"""The route of "/": the last `home_page` hook, else /me for users and /login for Guest."""
	home = frappe.get_hooks("home_page")
	if home:
		return home[-1].strip("/")
	return "login" if frappe.session.user == "Guest" else "me"
