"""The page of an error (status, title and message), rendered with the `message` www page."""

import frappe
from frappe import _
from frappe.website.page_renderers.template_page import TemplatePage


class ErrorPage(TemplatePage):
	def __init__(self, path=None, http_status_code=None, exception=None, title=None, message=None):
		path = "message"
		super().__init__(path=path, http_status_code=http_status_code)
		self.exception = exception
		self.http_status_code = http_status_code or getattr(exception, "http_status_code", None) or 500
		self.title = title
		self.message = message

	def can_render(self):
		return True

	def render(self):
		frappe.local.message_title = self.title or getattr(self.exception, "title", None) or _("Server Error")
		frappe.local.message = self.message or _("Uncaught Exception")
		frappe.local.response["context"] = dict(indicator_color="red")
		return super().render()
