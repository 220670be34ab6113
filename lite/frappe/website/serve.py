"""Answer a website request: route rules, `page_renderer` hooks, www pages, 404/403 pages."""

from __future__ import annotations

from werkzeug.wrappers import Response

import frappe
from frappe.website.page_renderers.not_found_page import NotFoundPage
from frappe.website.page_renderers.not_permitted_page import NotPermittedPage
from frappe.website.page_renderers.redirect_page import RedirectPage
from frappe.website.page_renderers.static_page import StaticPage
from frappe.website.page_renderers.template_page import TemplatePage
from frappe.website.router import resolve_path


def get_response(path: str | None = None, http_status_code: int = 200) -> Response:
	"""Resolve `path` (default: the request path) and render it."""
	path = path if path is not None else frappe.local.request.path
	endpoint = path.strip("/")
	try:
		endpoint, renderer = PathResolver(path, http_status_code).resolve()
		return renderer.render()
	except frappe.Redirect:
		return RedirectPage(endpoint or path, 302).render()
	except frappe.PermissionError as e:
		frappe.clear_messages()
		return NotPermittedPage(endpoint, http_status_code, exception=e).render()
	except frappe.PageDoesNotExistError:
		return NotFoundPage(endpoint, http_status_code).render()


class PathResolver:
	"""Finds the endpoint of a path and the first renderer that can render it."""

	def __init__(self, path: str, http_status_code: int = 200):
		self.path = path.strip("/ ")
		self.http_status_code = http_status_code

	def resolve(self):
		endpoint = resolve_path(self.path)
		for renderer in [*get_custom_page_renderers(), StaticPage, TemplatePage]:
			instance = renderer(endpoint, 200)
			if instance.can_render():
				return endpoint, instance
		return endpoint, NotFoundPage(endpoint)


def get_custom_page_renderers() -> list[type]:
	"""Classes named by the `page_renderer` hook of the installed apps."""
	return [frappe.get_attr(path) for path in frappe.get_hooks("page_renderer")]
