"""Redirect to `frappe.flags.redirect_location` (raised as frappe.Redirect by a page)."""

from __future__ import annotations

from werkzeug.wrappers import Response

import frappe
from frappe.website.page_renderers.base_renderer import BaseRenderer


class RedirectPage(BaseRenderer):
	def can_render(self) -> bool:
		return True

	def render(self) -> Response:
		location = frappe.flags.redirect_location or "/"
		code = self.http_status_code if self.http_status_code in (301, 302, 303, 307, 308) else 302
		return Response(
			"",
			status=code,
			headers={"Location": location, "Cache-Control": "no-store, no-cache, must-revalidate"},
		)
