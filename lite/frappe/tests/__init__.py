"""Frappe's test case classes and helpers: `from frappe.tests import IntegrationTestCase, UnitTestCase`."""

from .classes import *
from .classes.context_managers import *

global_test_dependencies = ["User"]
