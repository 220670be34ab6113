"""The base class of page renderers (also for apps' `page_renderer` hooks)."""

from __future__ import annotations

from werkzeug.wrappers import Response

import frappe
from frappe.website.utils import build_response


class BaseRenderer:
	"""Renders one path; subclasses say whether they can (`can_render`) and how (`render`)."""

	def __init__(
		self, path: str | None = None, http_status_code: int | None = None, headers: dict | None = None
	):
		self.headers = headers
		self.http_status_code = http_status_code or 200
		if path is None:
			path = frappe.local.request.path
		self.path = path.strip("/ ")
		self.basepath = ""
		self.basename = ""
		self.name = ""
		self.route = ""
		self.file_dir = None

	def can_render(self) -> bool:
		raise NotImplementedError

	def render(self) -> Response:
		raise NotImplementedError

	def build_response(
		self, data: str | bytes, http_status_code: int | None = None, headers: dict | None = None
	) -> Response:
		return build_response(
			self.path, data, http_status_code or self.http_status_code, headers or self.headers
		)
