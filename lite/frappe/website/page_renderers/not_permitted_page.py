"""403 page; a Guest is sent to /login with `redirect-to` instead."""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from werkzeug.utils import redirect
from werkzeug.wrappers import Response

import frappe
from frappe import _
from frappe.website.page_renderers.message_page import MessagePage


class NotPermittedPage(MessagePage):
	def __init__(
		self, path: str | None = None, http_status_code: int | None = None, exception: Exception | str = ""
	):
		super().__init__(path=path, http_status_code=403)
		self.exception = exception

	def render(self) -> Response:
		request_path = frappe.local.request.full_path.rstrip("?") if frappe.local.request else "/" + self.path
		if frappe.session.user == "Guest":
			return redirect("/login?" + urlencode({"redirect-to": request_path}), code=302)
		frappe.local.message_title = _("Not Permitted")
		frappe.local.message = escape(str(self.exception)) or _(
			"You do not have enough permissions to complete the action"
		)
		frappe.local.response["context"] = dict(
			indicator_color="red", primary_action="/", primary_label=_("Home")
		)
		return super().render()
