"""Route resolution (`website_route_rules` hooks, index and `.html` suffixes) and the renderer of a path."""

from __future__ import annotations

from werkzeug.exceptions import NotFound
from werkzeug.routing import Map, Rule

import frappe


class PathResolver:
	"""Finds the endpoint of a path and the first renderer that can render it."""

	__slots__ = ("http_status_code", "path")

	def __init__(self, path, http_status_code=None):
		self.path = path.strip("/ ")
		self.http_status_code = http_status_code

	def resolve(self):
		"""Return endpoint and a renderer instance that can render the endpoint."""
		from frappe.website.page_renderers.not_found_page import NotFoundPage
		from frappe.website.page_renderers.static_page import StaticPage
		from frappe.website.page_renderers.template_page import TemplatePage

		endpoint = resolve_path(self.path)
		for renderer in [*self.get_custom_page_renderers(), StaticPage, TemplatePage]:
			renderer_instance = renderer(endpoint, self.http_status_code)
			if renderer_instance.can_render():
				return endpoint, renderer_instance
		return endpoint, NotFoundPage(endpoint)

	def is_valid_path(self):
		_endpoint, renderer_instance = self.resolve()
		return renderer_instance.__class__.__name__ != "NotFoundPage"

	@staticmethod
	def get_custom_page_renderers():
		"""Classes named by the `page_renderer` hook of the installed apps."""
		return [frappe.get_attr(path) for path in frappe.get_hooks("page_renderer")]


def resolve_path(path):
	"""The endpoint (www page path) for a request path, after the route rules."""
	from frappe.website.utils import get_home_page

	if not path:
		path = "index"
	if path.endswith(".html"):
		path = path[:-5]
	if path == "index":
		path = get_home_page()
	frappe.local.path = path
	if path != "index":
		path = resolve_from_map(path)
	return path


def get_website_rules():
	"""Website route rules from hooks."""
	return [
		rule
		for rule in frappe.get_hooks("website_route_rules")
		if isinstance(rule, dict) and rule.get("from_route")
	]


def resolve_from_map(path):
	"""Apply the first matching `website_route_rules` entry; route arguments go to form_dict."""
	rules = [
		Rule(r["from_route"], endpoint=r["to_route"], defaults=r.get("defaults")) for r in get_website_rules()
	]
	return _evaluate_dynamic_routes(rules, path) or path


def _evaluate_dynamic_routes(rules, path):
	if not rules:
		return None
	adapter = Map(rules, strict_slashes=False, merge_slashes=False).bind("localhost")
	try:
		endpoint, args = adapter.match("/" + path)
	except NotFound:
		return None
	except Exception:
		return None
	if args:
		frappe.local.no_cache = 1
		frappe.local.form_dict.update(args)
	return endpoint.strip("/")
