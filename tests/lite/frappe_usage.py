"""Which of Frappe's names Huf uses, read statically from Huf's source (for the Frappe 15 check of
tests/lite/test_frappe_api_surface.py).

Collected from every module under huf/: dotted names imported from `frappe...` (an import inside a
`try` whose handler catches ImportError is a guarded use and not counted), `frappe.a.b` attribute
chains, attribute names used on anything (for methods), and the keyword arguments of calls by the
called function's last name.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HUF_ROOT = Path(__file__).resolve().parents[2] / "huf"


@dataclass
class Usage:
	dotted: set[str] = field(default_factory=set)
	attributes: set[str] = field(default_factory=set)
	keywords: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def _guarded_imports(tree: ast.AST) -> set[int]:
	"""ids of import nodes inside a try that catches ImportError (a fallback for the other Frappe line)."""
	guarded = set()
	for node in ast.walk(tree):
		if isinstance(node, ast.Try) and any(
			h.type is not None and "ImportError" in ast.unparse(h.type) for h in node.handlers
		):
			guarded |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
	return guarded


def _chain(node: ast.AST) -> str | None:
	parts = []
	while isinstance(node, ast.Attribute):
		parts.append(node.attr)
		node = node.value
	if isinstance(node, ast.Name):
		return ".".join([node.id, *reversed(parts)])
	return None


def huf_usage(root: Path = HUF_ROOT) -> Usage:
	usage = Usage()
	for path in root.rglob("*.py"):
		tree = ast.parse(path.read_text(), str(path))
		guarded = _guarded_imports(tree)
		for node in ast.walk(tree):
			if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("frappe"):
				if id(node) not in guarded:
					usage.dotted |= {f"{node.module}.{alias.name}" for alias in node.names}
			elif isinstance(node, ast.Import) and id(node) not in guarded:
				usage.dotted |= {alias.name for alias in node.names if alias.name.startswith("frappe")}
			elif isinstance(node, ast.Attribute):
				usage.attributes.add(node.attr)
				chain = _chain(node)
				if chain and chain.startswith("frappe."):
					usage.dotted.add(chain)
			elif isinstance(node, ast.Call):
				func = node.func
				name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
				if name:
					usage.keywords[name] |= {kw.arg for kw in node.keywords if kw.arg}
	return usage


def uses(usage: Usage, difference: str) -> bool:
	"""Whether Huf uses what a line of api_surface.differences() names (a missing name or parameter)."""
	subject, _, problem = difference.partition(": ")
	if subject.endswith("()"):  # a parameter: does Huf pass it by keyword?
		words = problem.split()
		if words[0] in ("parameter", "keyword") and "does not exist" in problem:
			return words[1] in usage.keywords.get(subject[:-2].rsplit(".", 1)[-1], set())
		return False
	if "missing" not in problem:
		return False
	parent, _, last = subject.rpartition(".")
	if parent.rsplit(".", 1)[-1][:1].isupper():  # a class member: used on any object
		return last in usage.attributes
	return subject in usage.dotted
