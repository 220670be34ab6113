"""www pages: `<app>/www/<path>.html` rendered with the context from `<path>.py`."""

from __future__ import annotations

import importlib
import inspect
import os

from werkzeug.wrappers import Response

import frappe
from frappe.website.page_renderers.base_renderer import BaseRenderer

PYMODULE_PROPERTIES = ("base_template_path", "template", "no_cache", "sitemap", "condition_field")


class TemplatePage(BaseRenderer):
	"""A www page of an installed app (the last installed app wins)."""

	def __init__(self, path: str | None = None, http_status_code: int | None = None):
		super().__init__(path=path, http_status_code=http_status_code)
		self.template_path = ""
		self.set_template_path()

	def set_template_path(self) -> None:
		if ".." in self.path.split("/"):
			return
		for app in reversed(frappe.get_installed_apps()):
			app_path = frappe.get_app_path(app)
			search_path = os.path.join(app_path, "www", self.path)
			for file_path in (
				f"{search_path}.html",
				f"{search_path}.md",
				os.path.join(search_path, "index.html"),
			):
				if os.path.isfile(file_path):
					self.app = app
					self.app_path = app_path
					self.file_path = file_path
					self.template_path = os.path.relpath(file_path, app_path)
					self.basepath = os.path.dirname(file_path)
					self.basename = os.path.splitext(file_path)[0]
					self.name = os.path.basename(self.basename)
					return

	def can_render(self) -> bool:
		return bool(self.template_path)

	def render(self) -> Response:
		html = self.get_html()
		html = add_csrf_token(html)
		return self.build_response(html, headers=self.context.get("headers") or None)

	def get_html(self) -> str:
		self.context = frappe._dict(path=self.path, route=self.path, template=self.template_path)
		self.context.update(frappe.conf.get("website_context") or {})
		self.run_pymodule()
		self.set_missing_values()
		from frappe.website.jinja import get_jenv

		env = get_jenv()
		template = self.context.template or self.template_path
		if template == self.template_path:
			with open(self.file_path, encoding="utf-8") as f:
				source = f.read()
			return env.from_string(source).render(self.context)
		return env.get_template(template).render(self.context)

	def run_pymodule(self) -> None:
		module_path = os.path.join(os.path.dirname(self.template_path), self.name.replace("-", "_") + ".py")
		if not os.path.exists(os.path.join(self.app_path, module_path)):
			return
		modulename = self.app + "." + module_path[:-3].replace(os.path.sep, ".")
		module = importlib.import_module(modulename)
		for prop in PYMODULE_PROPERTIES:
			if hasattr(module, prop):
				self.context[prop] = getattr(module, prop)
		get_context = getattr(module, "get_context", None)
		if get_context:
			data = get_context(self.context) if inspect.signature(get_context).parameters else get_context()
			if data:
				self.context.update(data)
		if self.context.http_status_code:
			self.http_status_code = self.context.http_status_code

	def set_missing_values(self) -> None:
		response_context = frappe.local.response.get("context") if frappe.local.response else None
		if response_context:
			self.context.update(response_context)
		user = frappe.session.user
		self.context.setdefault("user", user)
		self.context.setdefault("fullname", frappe.get_fullname(user) if user != "Guest" else "Guest")
		self.context.csrf_token = frappe.session.data.csrf_token if frappe.session.data else None
		self.context.title = self.context.title or self.name.replace("-", " ").replace("_", " ").title()


def add_csrf_token(html: str) -> str:
	"""Fill the `<!-- csrf_token -->` placeholder with the session's token, as Frappe does."""
	if "<!-- csrf_token -->" not in html:
		return html
	token = frappe.session.data.csrf_token if frappe.session and frappe.session.data else None
	return html.replace(
		"<!-- csrf_token -->",
		f'<script>window.frappe = window.frappe || {{}}; frappe.csrf_token = "{token or ""}";</script>',
	)
