"""Pages rendered from Jinja templates."""

import frappe
from frappe.website.page_renderers.base_renderer import BaseRenderer


class BaseTemplatePage(BaseRenderer):
	def __init__(self, path, http_status_code=None):
		super().__init__(path=path, http_status_code=http_status_code)
		self.template_path = ""
		self.source = ""

	def init_context(self):
		self.context = frappe._dict()
		self.context.update(frappe.local.conf.get("website_context") or {})

	def add_csrf_token(self, html):
		"""Fill the `<!-- csrf_token -->` placeholder with the session's token (if it has one)."""
		if frappe.local.session:
			csrf_token = frappe.local.session.data.csrf_token
			return html.replace(
				"<!-- csrf_token -->",
				f'<script>window.frappe = window.frappe || {{}}; frappe.csrf_token = "{csrf_token}";</script>',
			)

		return html
