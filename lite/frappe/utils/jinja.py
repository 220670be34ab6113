"""Jinja environment over the templates of the installed apps (later apps override earlier ones)."""

from __future__ import annotations

import os
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader, Template
from jinja2.sandbox import SandboxedEnvironment

import frappe

_envs: dict[tuple[str, ...], SandboxedEnvironment] = {}


def get_jenv() -> SandboxedEnvironment:
	"""The (sandboxed) environment for the installed apps of the current site."""
	apps = tuple(frappe.get_installed_apps())
	env = _envs.get(apps)
	if env is None:
		env = SandboxedEnvironment(loader=_loader(apps))
		env.globals.update(_jinja_globals())
		env.filters["json"] = frappe.as_json
		_envs[apps] = env
	return env


def get_jloader() -> BaseLoader:
	"""The template loader of the installed apps."""
	return _loader(tuple(frappe.get_installed_apps()))


def _loader(apps: tuple[str, ...]) -> BaseLoader:
	"""`templates/x.html` from any app (last installed wins) or `app/templates/x.html` from one app."""
	paths = {app: frappe.get_app_path(app) for app in apps}
	ordered = list(reversed(apps))
	# Frappe Lite keeps its own website templates (base.html, message.html) in frappe/website
	fallback = FileSystemLoader(os.path.join(os.path.dirname(os.path.dirname(__file__)), "website"))
	return ChoiceLoader(
		[PrefixLoader({app: FileSystemLoader(paths[app]) for app in ordered})]
		+ [FileSystemLoader(paths[app]) for app in ordered]
		+ [fallback]
	)


def _jinja_globals() -> dict[str, Any]:
	return {
		"frappe": frappe._dict(
			session=_SessionProxy(),
			form_dict=_FormDictProxy(),
			_=frappe._,
			get_url=lambda *a, **k: _get_url(),
			as_json=frappe.as_json,
			bold=frappe.bold,
		),
		"_": frappe._,
	}


class _SessionProxy:
	"""`frappe.session` inside templates (resolved per request)."""

	def __getattr__(self, key: str) -> Any:
		return getattr(frappe.session, key)


class _FormDictProxy:
	def __getattr__(self, key: str) -> Any:
		return frappe.form_dict.get(key)

	def get(self, key: str, default: Any = None) -> Any:
		return frappe.form_dict.get(key, default)


def _get_url() -> str:
	request = getattr(frappe.local, "request", None)
	return request.host_url.rstrip("/") if request else ""


def get_template(path: str) -> Template:
	return get_jenv().get_template(path)


def render_template(
	template: str, context: dict | None = None, is_path: bool | None = None, safe_render: bool = True
) -> str:
	"""Render a template path (`app/www/x.html`, `templates/x.html`) or a template string."""
	context = context or {}
	if is_path or (
		is_path is None
		and template.endswith((".html", ".md", ".txt"))
		and "\n" not in template
		and "{" not in template
	):
		return get_template(template).render(context)
	return get_jenv().from_string(template).render(context)
