"""Hooks of the installed apps, merged in installation order as Frappe does."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import frappe

_hooks_cache: dict[tuple, dict] = {}


def get_merged_hooks(app_name: str | None = None) -> frappe._dict:
	"""Every hook as a list (dict hooks keep their keys, with list leaves)."""
	apps = [app_name] if app_name else _apps()
	key = tuple(apps)
	hooks = _hooks_cache.get(key)
	if hooks is None:
		hooks = frappe._dict()
		for app in apps:
			try:
				module = importlib.import_module(f"{app}.hooks")
			except ImportError as e:
				# an app without hooks.py simply has no hooks
				if app_name and getattr(e, "name", None) not in (f"{app}.hooks",):
					raise
				continue
			for name, value in vars(module).items():
				if not name.startswith("_") and not callable(value) and not isinstance(value, type(sys)):
					_append_hook(hooks, name, value)
		_hooks_cache[key] = hooks
	return hooks


def _apps() -> list[str]:
	if getattr(frappe.local, "db", None) is None:
		return frappe.get_all_apps()
	apps = frappe.get_installed_apps()
	installing = frappe.flags.get("in_install_app")
	if installing and installing not in apps:
		apps.append(installing)
	return apps


def _append_hook(target: dict, key: str, value: Any) -> None:
	if isinstance(value, dict):
		target.setdefault(key, {})
		for inner_key, inner_value in value.items():
			_append_hook(target[key], inner_key, inner_value)
	else:
		target.setdefault(key, [])
		if isinstance(target[key], dict):
			return
		target[key].extend(value if isinstance(value, list | tuple) else [value])


def clear_hooks_cache() -> None:
	from frappe.model.document import _handler_cache

	_hooks_cache.clear()
	_handler_cache.clear()
