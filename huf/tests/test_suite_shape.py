"""Every Huf test runs the same on both runtimes: a Huf test class, found by Frappe's runner and by pytest."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import unittest
from pathlib import Path

import huf
from huf.tests.support.case import HufTestCase, HufUnitTestCase

APP = Path(huf.__file__).parent


def discovered_modules() -> list[str]:
	"""Dotted names of the test modules Frappe's runner discovers in the huf package."""
	return sorted(
		".".join(path.relative_to(APP.parent).with_suffix("").parts)
		for path in APP.rglob("test_*.py")
		if "node_modules" not in path.parts and "public" not in path.parts
	)


def module_source(module_name: str) -> str:
	return APP.parent.joinpath(*module_name.split(".")).with_suffix(".py").read_text()


class TestSuiteShape(HufUnitTestCase):
	def test_every_test_is_a_method_of_a_huf_test_class(self):
		problems = []
		for module_name in discovered_modules():
			tree = ast.parse(module_source(module_name), module_name)
			# module-level test functions: pytest runs them, Frappe's runner never does
			problems += [
				f"{module_name}.{node.name}: a module-level test function"
				for node in tree.body
				if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
			]
			module = importlib.import_module(module_name)
			for name, cls in inspect.getmembers(module, inspect.isclass):
				if cls.__module__ != module_name or not issubclass(cls, unittest.TestCase):
					continue
				if not issubclass(cls, HufTestCase | HufUnitTestCase):
					problems.append(f"{module_name}.{name}: not a HufTestCase or HufUnitTestCase")
		self.assertEqual(problems, [], "\n".join(problems))

	def test_no_test_imports_pytest(self):
		users = [
			name
			for name in discovered_modules()
			if re.search(r"^\s*(import|from) pytest\b", module_source(name), re.MULTILINE)
		]
		self.assertEqual(users, [], "pytest is not there on a bench: " + ", ".join(users))
