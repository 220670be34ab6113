"""Modules of apps (`<app>/modules.txt`) and the Python modules of DocTypes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import frappe
from frappe import _, get_module_path, scrub  # noqa: F401 - re-exported, as in Frappe

if TYPE_CHECKING:
	from types import ModuleType

doctype_python_modules = {}


def get_doctype_module(doctype: str) -> str:
	"""Return **Module Def** name of given doctype."""
	try:
		return frappe.get_meta(doctype).module
	except frappe.DoesNotExistError:
		pass
	frappe.throw(_("DocType {} not found").format(doctype), exc=frappe.DoesNotExistError)


def load_doctype_module(doctype, module=None, prefix="", suffix="") -> ModuleType:
	"""The Python module of a DocType (`<app>.<module>.doctype.<doctype>.<prefix><doctype><suffix>`)."""
	module = module or get_doctype_module(doctype)
	app = get_module_app(module)
	key = (app, doctype, prefix, suffix)
	module_name = get_module_name(doctype, module, prefix, suffix, app)
	if key not in doctype_python_modules:
		try:
			doctype_python_modules[key] = frappe.get_module(module_name)
		except ImportError as e:
			msg = f"Module import failed for {doctype}, the DocType you're trying to open might be deleted."
			msg += f"\nError: {e}"
			raise ImportError(msg) from e
	return doctype_python_modules[key]


def get_module_name(doctype: str, module: str, prefix: str = "", suffix: str = "", app: str | None = None):
	app = scrub(app or get_module_app(module))
	module = scrub(module)
	doctype = scrub(doctype)
	return f"{app}.{module}.doctype.{doctype}.{prefix}{doctype}{suffix}"


def get_module_app(module: str) -> str:
	"""The app whose modules.txt lists `module`."""
	for app in frappe.get_all_apps():
		try:
			if scrub(module) in (scrub(m) for m in frappe.get_module_list(app)):
				return app
		except (ImportError, OSError):
			continue
	frappe.throw(_("Module {} not found").format(module), exc=frappe.DoesNotExistError)
