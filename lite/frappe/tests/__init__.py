"""Frappe's test case classes: `from frappe.tests import IntegrationTestCase, UnitTestCase`."""

from frappe.tests.classes import IntegrationTestCase, UnitTestCase

__all__ = ["IntegrationTestCase", "UnitTestCase"]
