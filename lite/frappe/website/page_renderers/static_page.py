"""Static files that sit in an app's `www/` folder (images, scripts next to the pages)."""

from __future__ import annotations

import mimetypes
import os

from werkzeug.wrappers import Response
from werkzeug.wsgi import wrap_file

import frappe
from frappe.website.page_renderers.base_renderer import BaseRenderer

UNSUPPORTED_STATIC_PAGE_TYPES = ("css", "html", "js", "json", "md", "py", "pyc", "pyo", "txt", "xml")


class StaticPage(BaseRenderer):
	__slots__ = ("file_path", "path")

	def __init__(self, path, http_status_code=None):
		super().__init__(path=path, http_status_code=http_status_code)
		self.set_file_path()

	def set_file_path(self):
		self.file_path = ""
		if not self.is_valid_file_path():
			return
		for app in reversed(frappe.get_installed_apps()):
			root = os.path.realpath(os.path.join(frappe.get_app_path(app), "www"))
			file_path = os.path.realpath(os.path.join(root, self.path))
			if file_path.startswith(root + os.sep) and os.path.isfile(file_path):
				self.file_path = file_path
				return

	def can_render(self):
		return self.is_valid_file_path() and self.file_path

	def is_valid_file_path(self):
		extension = self.path.rsplit(".", 1)[-1] if "." in self.path else ""
		if not extension or extension in UNSUPPORTED_STATIC_PAGE_TYPES:
			return False
		return True

	def render(self) -> Response:
		f = open(self.file_path, "rb")  # noqa: SIM115 - closed by the response
		response = Response(wrap_file(frappe.local.request.environ, f), direct_passthrough=True)
		response.mimetype = mimetypes.guess_type(self.file_path)[0] or "application/octet-stream"
		return response
