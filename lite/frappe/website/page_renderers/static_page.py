"""Static files that sit in an app's `www/` folder (images, scripts next to the pages)."""

from __future__ import annotations

import mimetypes
import os

from werkzeug.wrappers import Response
from werkzeug.wsgi import wrap_file

import frappe
from frappe.website.files import safe_join
from frappe.website.page_renderers.base_renderer import BaseRenderer

UNSUPPORTED_STATIC_PAGE_TYPES = ("html", "md", "js", "xml", "css", "txt", "py", "json")


class StaticPage(BaseRenderer):
	def __init__(self, path: str | None = None, http_status_code: int | None = None):
		super().__init__(path=path, http_status_code=http_status_code)
		self.file_path = ""
		self.set_file_path()

	def set_file_path(self) -> None:
		extension = self.path.rsplit(".", 1)[-1] if "." in self.path else ""
		if not extension or extension in UNSUPPORTED_STATIC_PAGE_TYPES:
			return
		for app in reversed(frappe.get_installed_apps()):
			file_path = safe_join(os.path.join(frappe.get_app_path(app), "www"), self.path)
			if file_path and os.path.isfile(file_path):
				self.file_path = file_path
				return

	def can_render(self) -> bool:
		return bool(self.file_path)

	def render(self) -> Response:
		f = open(self.file_path, "rb")  # noqa: SIM115 - closed by the response
		response = Response(wrap_file(frappe.local.request.environ, f), direct_passthrough=True)
		response.mimetype = mimetypes.guess_type(self.file_path)[0] or "application/octet-stream"
		return response
