"""Every Frappe name huf uses exists in the `frappe` the tests run against, and takes the arguments huf passes.

The test reads every .py file of the huf package (tests and test support included) and collects what it
takes from frappe: `from frappe.x import y`, `import frappe.x`, attribute chains on the `frappe` module
(`frappe.get_doc`, `frappe.utils.get_url`, `frappe.db.get_value`...) and the calls of those names (how
many positional arguments, which keywords). On a real bench this proves huf uses nothing real Frappe
lacks; on Frappe Lite it proves Lite offers everything huf uses.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import os
from dataclasses import dataclass
from types import ModuleType

import frappe

import huf
from huf.tests.support.case import HufTestCase

# Request-local objects: only their presence on `frappe` is checked (their attributes are data).
FIRST_PART_ONLY = {
	"local",
	"session",
	"flags",
	"conf",
	"form_dict",
	"request",
	"response",
	"qb",
	"message_log",
	"job",
}
# Attributes of these are looked up on the live object (and for `db`, on the Database class too).
LIVE_OBJECTS = {"db", "cache"}
UNKNOWN = object()  # exists, but what it is cannot be known here (a request-local value)


@dataclass(frozen=True)
class Use:
	"""One name huf takes from frappe, and where."""

	path: str
	line: int
	kind: str  # "import" (module), "import-from" (target module, name), "attribute" or "call" (target)
	target: str
	name: str = ""
	positional: int = 0  # calls: how many positional arguments
	keywords: tuple = ()  # calls: the keyword arguments' names

	def label(self) -> str:
		if self.kind == "import-from":
			shown = f"from {self.target} import {self.name}"
		elif self.kind == "call":
			shown = f"{self.target}({', '.join(['_'] * self.positional + [f'{k}=' for k in self.keywords])})"
		else:
			shown = self.target
		return f"{self.path}:{self.line} {shown}"


def package_files() -> list[str]:
	"""Every .py file of the huf package."""
	root = os.path.dirname(huf.__file__)
	files = []
	for folder, dirs, names in os.walk(root):
		dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "node_modules", "public"))
		files.extend(os.path.join(folder, name) for name in sorted(names) if name.endswith(".py"))
	return files


def chain_of(node: ast.AST) -> list[str] | None:
	"""`a.b.c` as ["a", "b", "c"] when the expression is a plain dotted name, else None."""
	parts = []
	while isinstance(node, ast.Attribute):
		parts.append(node.attr)
		node = node.value
	if not isinstance(node, ast.Name):
		return None
	parts.append(node.id)
	return parts[::-1]


@functools.cache
def is_module(dotted: str) -> bool:
	"""Whether `dotted` is a module that imports."""
	try:
		importlib.import_module(dotted)
	except Exception:
		return False
	return True


class _Collector(ast.NodeVisitor):
	"""Collects the frappe names one file uses.

	`modules` maps local names bound to frappe modules (`frappe`, `from frappe import utils`),
	`names` local names bound to other frappe objects (`from frappe.utils import cint`).
	"""

	def __init__(self, path: str):
		self.path = path
		self.uses: list[Use] = []
		self.modules = {"frappe": "frappe"}
		self.names: dict[str, str] = {}
		self.guarded = 0  # inside `try: ... except ImportError`: a fallback for the other Frappe line

	def add(self, node: ast.AST, kind: str, target: str, **fields) -> None:
		if not (self.guarded and kind.startswith("import")):
			self.uses.append(Use(self.path, node.lineno, kind, target, **fields))

	def visit_Try(self, node: ast.Try) -> None:
		guarded = any(h.type is not None and "ImportError" in ast.unparse(h.type) for h in node.handlers)
		self.guarded += guarded
		for statement in node.body:
			self.visit(statement)
		self.guarded -= guarded
		for part in (*node.handlers, *node.orelse, *node.finalbody):
			self.visit(part)

	def visit_Import(self, node: ast.Import) -> None:
		for alias in node.names:
			if alias.name == "frappe" or alias.name.startswith("frappe."):
				self.add(node, "import", alias.name)
				if alias.asname:
					self.modules[alias.asname] = alias.name

	def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
		module = node.module or ""
		if node.level or not (module == "frappe" or module.startswith("frappe.")):
			return
		for alias in node.names:
			self.add(node, "import-from", module, name=alias.name)
			local, dotted = alias.asname or alias.name, f"{module}.{alias.name}"
			if is_module(dotted):
				self.modules[local] = dotted
			else:
				self.names[local] = dotted

	def dotted(self, node: ast.AST) -> str | None:
		"""The frappe name an expression spells (`frappe.utils.x`, or a name imported from frappe)."""
		parts = chain_of(node)
		if parts is None:
			return None
		if parts[0] in self.modules:
			return ".".join([self.modules[parts[0]], *parts[1:]])
		if parts[0] in self.names and len(parts) == 1:
			return self.names[parts[0]]
		return None

	def visit_Attribute(self, node: ast.Attribute) -> None:
		parts = chain_of(node)
		if parts is None or parts[0] not in self.modules:
			self.generic_visit(node)
			return
		if isinstance(node.ctx, ast.Store | ast.Del):
			parts = parts[:-1]  # setting an attribute: what it is set on must exist
		if len(parts) > 1:
			self.add(node, "attribute", ".".join([self.modules[parts[0]], *parts[1:]]))

	def visit_Call(self, node: ast.Call) -> None:
		target = self.dotted(node.func)
		unpacked = any(isinstance(a, ast.Starred) for a in node.args) or any(
			k.arg is None for k in node.keywords
		)
		if target and "." in target and not unpacked:
			keywords = tuple(k.arg for k in node.keywords)
			self.add(node, "call", target, positional=len(node.args), keywords=keywords)
		self.generic_visit(node)


def collect_uses(files: list[str] | None = None) -> list[Use]:
	"""The frappe names `files` (default: every file of the huf package) use."""
	root = os.path.dirname(os.path.dirname(huf.__file__))
	uses = []
	for path in files or package_files():
		with open(path, encoding="utf-8") as f:
			tree = ast.parse(f.read(), filename=path)
		collector = _Collector(os.path.relpath(path, root))
		collector.visit(tree)
		uses.extend(collector.uses)
	return uses


def live_attribute(first: str, name: str):
	"""`frappe.db.<name>` / `frappe.cache.<name>`: on the connected object, else on the Database class."""
	try:
		live = getattr(frappe, first, None)
		if live is not None and hasattr(live, name):
			return getattr(live, name)
	except RuntimeError:  # an unbound request-local proxy
		pass
	if first == "db":
		from frappe.database.database import Database

		if hasattr(Database, name):
			return UNKNOWN  # an unbound method: its signature has `self`
	raise AttributeError(name)


def lookup(dotted: str):
	"""What `frappe.a.b.c` names (attributes, or submodules that import); AttributeError when nothing."""
	parts = dotted.split(".")
	if len(parts) > 2 and parts[1] in FIRST_PART_ONLY:
		getattr(frappe, parts[1])
		return UNKNOWN
	if len(parts) > 2 and parts[1] in LIVE_OBJECTS:
		found = live_attribute(parts[1], parts[2])
		return UNKNOWN if len(parts) > 3 else found
	if not is_module(parts[0]):
		raise AttributeError(parts[0])
	current = importlib.import_module(parts[0])
	path = parts[0]
	for part in parts[1:]:
		path = f"{path}.{part}"
		if isinstance(current, ModuleType) and is_module(path):
			current = importlib.import_module(path)
			continue
		try:
			current = getattr(current, part)
		except RuntimeError:  # a request-local proxy with nothing bound: it exists
			return UNKNOWN
	return current


def resolve(dotted: str) -> bool:
	"""Whether `frappe.a.b.c` names something."""
	try:
		lookup(dotted)
	except AttributeError:
		return False
	return True


def problem(use: Use) -> str | None:
	"""Why `use` would fail on this frappe, or None."""
	if use.kind == "import":
		return None if is_module(use.target) else "no such module"
	if use.kind == "import-from":
		if use.name == "*" or is_module(f"{use.target}.{use.name}"):
			return None
		if is_module(use.target) and hasattr(importlib.import_module(use.target), use.name):
			return None
		return "cannot be imported"
	try:
		found = lookup(use.target)
	except AttributeError:
		# a call of a missing name is reported once, by its import or attribute
		return None if use.kind == "call" else "no such name"
	if use.kind == "call" and found is not UNKNOWN and callable(found):
		try:
			signature = inspect.signature(found)
		except (TypeError, ValueError):  # builtins without a signature
			return None
		try:
			signature.bind(*[None] * use.positional, **dict.fromkeys(use.keywords))
		except TypeError as exc:
			return f"{exc} (signature {signature})"
	return None


class TestFrappeApiSurface(HufTestCase):
	def test_collects_imports_attribute_chains_and_calls(self):
		uses = collect_uses()
		targets = {(u.kind, u.target, u.name) for u in uses}
		self.assertIn(("attribute", "frappe.get_doc", ""), targets)
		self.assertIn(("attribute", "frappe.db.get_value", ""), targets)
		self.assertIn(("call", "frappe.db.get_value", ""), targets)
		self.assertIn(("import-from", "frappe.model.document", "Document"), targets)
		self.assertIn(("call", "frappe.utils.password.update_password", ""), targets)
		self.assertGreater(len(uses), 1000)

	def test_every_frappe_name_huf_uses_exists_and_takes_its_arguments(self):
		problems = sorted({f"{use.label()}: {reason}" for use in collect_uses() if (reason := problem(use))})
		self.assertEqual(problems, [], "huf uses what this frappe lacks:\n" + "\n".join(problems))

	def test_an_import_with_an_import_error_fallback_is_not_a_use(self):
		import tempfile

		with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
			f.write(
				"try:\n\tfrom frappe.tests import NoSuchCase\nexcept ImportError:\n\tNoSuchCase = object\n"
				"from frappe.utils import cint\n"
			)
			f.flush()
			uses = {(u.kind, u.target, u.name) for u in collect_uses([f.name])}
		self.assertEqual(uses, {("import-from", "frappe.utils", "cint")})

	def test_missing_names_and_wrong_calls_are_reported(self):
		self.assertFalse(resolve("frappe.no_such_function_in_frappe"))
		self.assertFalse(resolve("frappe.db.no_such_database_method"))
		self.assertFalse(resolve("frappe.utils.no_such_helper"))
		self.assertTrue(problem(Use("x.py", 1, "import-from", "frappe.utils", "no_such_helper")))
		self.assertTrue(problem(Use("x.py", 1, "import", "frappe.no_such_module")))
		self.assertTrue(resolve("frappe.utils.get_url"))
		self.assertTrue(resolve("frappe.local.site"))
		# get_all needs the doctype; get_value takes no `no_such_keyword`
		self.assertTrue(problem(Use("x.py", 1, "call", "frappe.get_all")))
		self.assertTrue(problem(Use("x.py", 1, "call", "frappe.db.get_value", keywords=("no_such_keyword",))))
		self.assertIsNone(problem(Use("x.py", 1, "call", "frappe.db.get_value", positional=3)))
