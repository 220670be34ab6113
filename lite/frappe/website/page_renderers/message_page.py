"""The plain message page (`frappe.respond_as_web_page`, errors, not found, not permitted)."""

from __future__ import annotations

from werkzeug.wrappers import Response

import frappe
from frappe.website.page_renderers.base_renderer import BaseRenderer


class MessagePage(BaseRenderer):
	"""Renders `frappe.local.message_title` / `frappe.local.message` in templates/message.html."""

	def can_render(self) -> bool:
		return True

	def render(self) -> Response:
		from frappe.website.jinja import get_template
		from frappe.website.page_renderers.template_page import add_csrf_token

		context = frappe._dict(
			title=getattr(frappe.local, "message_title", None) or "",
			message=getattr(frappe.local, "message", None) or "",
			indicator_color="blue",
			primary_action="/",
			primary_label=frappe._("Home"),
		)
		context.update(frappe.local.response.get("context") or {})
		status = frappe.local.response.pop("http_status_code", None) or self.http_status_code
		html = add_csrf_token(get_template("templates/message.html").render(context))
		return self.build_response(html, http_status_code=status)
