"""Frappe's test helpers (`frappe.tests.utils`), kept for tests written for Frappe v15."""

from .generators import *
from .generators import make_test_objects, make_test_records  # noqa: F401


def check_orpahned_doctypes():
	"""Check that all doctypes in DB actually exist after patch test"""
	import frappe
	from frappe.model.base_document import get_controller

	doctypes = frappe.get_all("DocType", {"custom": 0}, pluck="name")
	orpahned_doctypes = []
	for doctype in doctypes:
		try:
			get_controller(doctype)
		except ImportError:
			orpahned_doctypes.append(doctype)
	if orpahned_doctypes:
		frappe.throw(
			"Following doctypes exist in DB without controller.\n {}".format("\n".join(orpahned_doctypes))
		)


def change_settings(*args, **kwargs):
	from frappe.tests.classes.context_managers import change_settings

	return change_settings(*args, **kwargs)


def debug_on(*args, **kwargs):
	from frappe.tests.classes.context_managers import debug_on

	return debug_on(*args, **kwargs)


def patch_hooks(*args, **kwargs):
	from frappe.tests.classes.context_managers import patch_hooks

	return patch_hooks(*args, **kwargs)


def timeout(*args, **kwargs):
	from frappe.tests.classes.context_managers import timeout

	return timeout(*args, **kwargs)


def __getattr__(name: str):
	# `FrappeTestCase`, Frappe v15's IntegrationTestCase (made on first use: the classes import this module)
	if name == "FrappeTestCase":
		from frappe.tests.classes.integration_test_case import IntegrationTestCase

		globals()["FrappeTestCase"] = type(
			"FrappeTestCase",
			(IntegrationTestCase,),
			{"__module__": __name__, "__doc__": "Frappe v15's base test class."},
		)
		return globals()["FrappeTestCase"]
	raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
