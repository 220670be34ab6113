"""404 page."""

from __future__ import annotations

from werkzeug.wrappers import Response

import frappe
from frappe import _
from frappe.website.page_renderers.message_page import MessagePage


class NotFoundPage(MessagePage):
	def __init__(self, path: str | None = None, http_status_code: int | None = None):
		super().__init__(path=path, http_status_code=404)

	def render(self) -> Response:
		frappe.local.message_title = _("Not Found")
		frappe.local.message = _("The resource you are looking for is not available")
		frappe.local.response["context"] = dict(indicator_color="red")
		return super().render()
