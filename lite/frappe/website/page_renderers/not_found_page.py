"""404 page."""

import frappe
from frappe import _
from frappe.website.page_renderers.template_page import TemplatePage


class NotFoundPage(TemplatePage):
	def __init__(self, path, http_status_code=None):
		self.request_path = path
		request = getattr(frappe.local, "request", None)
		self.request_url = request.url if request else ""
		path = "message"
		http_status_code = http_status_code or 404
		super().__init__(path=path, http_status_code=http_status_code)
		self.http_status_code = 404

	def can_render(self):
		return True

	def render(self):
		frappe.local.message_title = _("Not Found")
		frappe.local.message = _("The resource you are looking for is not available")
		frappe.local.response["context"] = dict(indicator_color="red")
		return super().render()
