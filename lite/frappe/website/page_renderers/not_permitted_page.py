"""403 page (with a link to log in)."""

from html import escape
from urllib.parse import quote_plus

import frappe
from frappe import _
from frappe.utils import cstr
from frappe.website.page_renderers.template_page import TemplatePage


class NotPermittedPage(TemplatePage):
	def __init__(self, path=None, http_status_code=None, exception=""):
		frappe.local.message = escape(cstr(exception))
		super().__init__(path="message", http_status_code=http_status_code)
		self.http_status_code = 403

	def can_render(self):
		return True

	def render(self):
		action = f"/login?redirect-to={quote_plus(frappe.request.path)}"
		if frappe.request.path.startswith("/app/") or frappe.request.path == "/app":
			action = "/login"
		frappe.local.message_title = _("Not Permitted")
		if not frappe.local.message:
			frappe.local.message = _("You do not have enough permissions to complete the action")
		frappe.local.response["context"] = dict(
			indicator_color="red", primary_action=action, primary_label=_("Login"), fullpage=True
		)
		return super().render()
