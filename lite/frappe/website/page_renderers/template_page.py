"""www pages: `<app>/www/<path>.html` rendered with the context from `<path>.py`."""

from __future__ import annotations

import importlib
import inspect
import os

from werkzeug.wrappers import Response

import frappe
from frappe.utils import get_fullname
from frappe.website.page_renderers.base_template_page import BaseTemplatePage

_PYMODULE_PROPERTIES = ("base_template_path", "template", "no_cache", "sitemap", "condition_field")


class TemplatePage(BaseTemplatePage):
	"""A www page of an installed app (the last installed app wins)."""

	def __init__(self, path, http_status_code=None):
		super().__init__(path=path, http_status_code=http_status_code)
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
		html = self.add_csrf_token(html)
		return self.build_response(html, headers=self.context.get("headers") or None)

	def get_html(self) -> str:
		self.init_context()
		self.context.update(path=self.path, route=self.path, template=self.template_path)
		self.update_context()
		self.set_missing_values()
		from frappe.utils.jinja import get_jenv

		env = get_jenv()
		template = self.context.template or self.template_path
		if template == self.template_path:
			with open(self.file_path, encoding="utf-8") as f:
				source = f.read()
			return env.from_string(source).render(self.context)
		return env.get_template(template).render(self.context)

	def update_context(self) -> None:
		"""Properties and `get_context` of the page's Python module (`<page>.py` beside the template)."""
		module_path = os.path.join(os.path.dirname(self.template_path), self.name.replace("-", "_") + ".py")
		if not os.path.exists(os.path.join(self.app_path, module_path)):
			return
		modulename = self.app + "." + module_path[:-3].replace(os.path.sep, ".")
		module = importlib.import_module(modulename)
		for prop in _PYMODULE_PROPERTIES:
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
		self.context.setdefault("fullname", get_fullname(user) if user != "Guest" else "Guest")
		self.context.csrf_token = frappe.session.data.csrf_token if frappe.session.data else None
		self.context.title = self.context.title or self.name.replace("-", " ").replace("_", " ").title()
