"""Apps and their modules (modules.txt), as in Frappe's frappe.modules."""

from __future__ import annotations

import os

import frappe


def get_app_modules(app: str) -> list[str]:
	"""Module names listed in `<app>/modules.txt`."""
	path = os.path.join(frappe.get_pymodule_path(app), "modules.txt")
	if not os.path.exists(path):
		return []
	with open(path) as f:
		return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def get_module_app(module: str) -> str:
	"""The app that declares `module`."""
	for app in frappe.get_all_apps():
		try:
			if module in get_app_modules(app):
				return app
		except ImportError:
			continue
	raise frappe.DoesNotExistError(frappe._("Module {0} not found").format(module))


def scrub(txt: str) -> str:
	return frappe.scrub(txt)


def get_doctype_module(doctype: str) -> str:
	return frappe.get_meta(doctype).module
