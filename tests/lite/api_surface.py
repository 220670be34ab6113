"""Compare Frappe Lite's public names and signatures with real Frappe's source, statically (no import).

`differences(lite_root, real_root)` walks every module of Lite's `frappe` package and reports each
public module, function, class, method or constant that real Frappe lacks, and each function whose
parameters are not compatible with real Frappe's. Run it directly for a report:

	python tests/lite/api_surface.py [/path/to/frappe-source]
"""

from __future__ import annotations

import ast
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

EXTERNAL_BASE = "<external base>"

# Real Frappe's `frappe.db` is a MariaDBDatabase (or Postgres, SQLite): Lite's Database stands for both.
CLASS_EXTRAS = {
	"frappe.database.database.Database": ["frappe.database.mariadb.database.MariaDBDatabase"],
}


@dataclass
class Module:
	name: str
	path: Path
	tree: ast.Module
	is_package: bool
	defs: dict[str, ast.AST] = field(default_factory=dict)  # def / class / assignment at top level
	imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # alias -> (module, name)
	star_imports: list[str] = field(default_factory=list)
	all_names: list[str] | None = None


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
	if not level:
		return target or ""
	parts = module.split(".")
	base = parts if is_package else parts[:-1]
	base = base[: len(base) - (level - 1)] if level > 1 else base
	return ".".join([*base, target] if target else base)


def _top_level_statements(body: list[ast.stmt]):
	"""Statements that run at import, looking into if/try blocks (not into `if TYPE_CHECKING`)."""
	for node in body:
		if isinstance(node, ast.If):
			test = ast.unparse(node.test)
			if "TYPE_CHECKING" in test:
				continue
			yield from _top_level_statements(node.body)
			yield from _top_level_statements(node.orelse)
		elif isinstance(node, ast.Try):
			yield from _top_level_statements(node.body)
			for handler in node.handlers:
				yield from _top_level_statements(handler.body)
			yield from _top_level_statements(node.orelse)
			yield from _top_level_statements(node.finalbody)
		else:
			yield node


class Source:
	"""The `frappe` package under `root` (the folder holding `frappe/`), parsed on demand."""

	def __init__(self, root: str | os.PathLike):
		self.root = Path(root)
		self._modules: dict[str, Module | None] = {}

	def module_path(self, name: str) -> tuple[Path, bool] | None:
		base = self.root.joinpath(*name.split("."))
		if (base / "__init__.py").is_file():
			return base / "__init__.py", True
		if base.with_suffix(".py").is_file():
			return base.with_suffix(".py"), False
		if base.is_dir() and name.startswith("frappe"):  # namespace folder (e.g. a doctype folder)
			return base, True
		return None

	def module(self, name: str) -> Module | None:
		if name in self._modules:
			return self._modules[name]
		found = self.module_path(name)
		module = None
		if found:
			path, is_package = found
			tree = ast.parse(path.read_text()) if path.is_file() else ast.Module(body=[], type_ignores=[])
			module = Module(name, path, tree, is_package)
			self._index(module)
		self._modules[name] = module
		return module

	def _index(self, module: Module) -> None:
		for node in _top_level_statements(module.tree.body):
			if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
				module.defs[node.name] = node
			elif isinstance(node, ast.Assign):
				for target in node.targets:
					for name in ast.walk(target):
						if isinstance(name, ast.Name):
							module.defs[name.id] = node
							if name.id == "__all__":
								try:
									module.all_names = list(ast.literal_eval(node.value))
								except ValueError:
									pass
			elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
				module.defs.setdefault(node.target.id, node)
			elif isinstance(node, ast.Import):
				for alias in node.names:
					if alias.asname:
						module.imports[alias.asname] = (alias.name, None)
					else:
						top = alias.name.split(".")[0]
						module.imports[top] = (top, None)
			elif isinstance(node, ast.ImportFrom):
				source = _resolve_relative(module.name, module.is_package, node.level, node.module)
				for alias in node.names:
					if alias.name == "*":
						module.star_imports.append(source)
					else:
						module.imports[alias.asname or alias.name] = (source, alias.name)

	def public_names(self, name: str, _seen: set | None = None, own_only: bool = False) -> set[str]:
		"""What `from module import *` gives (`own_only`: what the module defines or re-exports from frappe,
		not the standard library and third-party names it happens to import)."""
		module = self.module(name)
		if module is None:
			return set()
		if module.all_names is not None:
			return set(module.all_names)
		imported = (
			{
				a
				for a, (src, attr) in module.imports.items()
				if attr is not None and src.split(".")[0] == "frappe"
			}
			if own_only
			else set(module.imports)
		)
		names = {n for n in (*module.defs, *imported) if not n.startswith("_")}
		_seen = _seen or set()
		_seen.add(name)
		for star in module.star_imports:
			if star not in _seen and (not own_only or star.split(".")[0] == "frappe"):
				names |= self.public_names(star, _seen, own_only)
		return names

	def lookup(self, module_name: str, name: str, _depth: int = 0) -> tuple[str, ast.AST | None] | None:
		"""Where `module.name` comes from: (module, node), node None for a module or a foreign object."""
		if _depth > 20:
			return None
		module = self.module(module_name)
		if module is None:
			return None
		if name in module.defs:
			return module_name, module.defs[name]
		if name in module.imports:
			source, attr = module.imports[name]
			if attr is None:
				return source, None
			if source.split(".")[0] != "frappe":
				return source, None
			if (
				self.module(f"{source}.{attr}") is not None
				and attr not in (self.module(source) or module).defs
			):
				return f"{source}.{attr}", None
			found = self.lookup(source, attr, _depth + 1)
			return found or (source, None)
		for star in module.star_imports:
			if star.split(".")[0] == "frappe" and name in self.public_names(star):
				found = self.lookup(star, name, _depth + 1)
				if found:
					return found
		if self.module(f"{module_name}.{name}") is not None:
			return f"{module_name}.{name}", None
		if "__getattr__" in module.defs:  # module-level __getattr__: anything may exist
			return module_name, None
		return None

	def class_members(self, module_name: str, node: ast.ClassDef, _depth: int = 0) -> dict[str, ast.AST]:
		"""Methods and class attributes of a class and its (statically resolvable) bases; the key
		`EXTERNAL_BASE` is set when a base lies outside frappe (e.g. redis.Redis): its members are unknown."""
		members: dict[str, ast.AST] = {}
		if _depth > 10:
			return members
		for base in node.bases:
			dotted = ast.unparse(base)
			head, _, rest = dotted.partition(".")
			found = self.lookup(module_name, head)
			if found and rest:
				found = self.lookup(found[0], rest) if found[1] is None else None
			if found and isinstance(found[1], ast.ClassDef):
				members.update(self.class_members(found[0], found[1], _depth + 1))
			elif dotted not in ("object", "Exception", "BaseException", "dict") and not dotted.endswith(
				"Error"
			):
				members[EXTERNAL_BASE] = None
		for child in _top_level_statements(node.body):
			if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
				members[child.name] = child
			elif isinstance(child, ast.Assign):
				for target in child.targets:
					if isinstance(target, ast.Name):
						members[target.id] = child
			elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
				members[child.target.id] = child
		return members

	def modules(self) -> list[str]:
		out = []
		for path in sorted((self.root / "frappe").rglob("*.py")):
			rel = path.relative_to(self.root).with_suffix("")
			parts = list(rel.parts)
			if parts[-1] == "__init__":
				parts.pop()
			if "__pycache__" in parts:
				continue
			out.append(".".join(parts))
		return out


# ---------------------------------------------------------------------------------------------
# signatures


def _is_static(node: ast.AST) -> bool:
	return any(ast.unparse(d) == "staticmethod" for d in getattr(node, "decorator_list", []))


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef, drop_first: bool = False):
	args = node.args
	positional = [*args.posonlyargs, *args.args]
	defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
	pos = [(a.arg, d is not None) for a, d in zip(positional, defaults, strict=True)]
	if drop_first and pos:
		pos = pos[1:]
	kwonly = {a.arg: d is not None for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)}
	return pos, kwonly, args.vararg is not None, args.kwarg is not None, len(args.posonlyargs)


def _is_overload(node: ast.AST) -> bool:
	return any(ast.unparse(d).endswith("overload") for d in getattr(node, "decorator_list", []))


def signature_problems(lite: ast.AST, real: ast.AST, method: bool = False) -> list[str]:
	"""Why a call that works on Lite could fail on real Frappe, or the other way round."""
	if not isinstance(lite, ast.FunctionDef | ast.AsyncFunctionDef):
		return []
	if not isinstance(real, ast.FunctionDef | ast.AsyncFunctionDef):
		return []
	# a method is called without its self/cls: compare what callers pass
	l_pos, l_kw, l_var, l_varkw, _ = _params(lite, drop_first=method and not _is_static(lite))
	r_pos, r_kw, r_var, r_varkw, r_posonly = _params(real, drop_first=method and not _is_static(real))
	problems = []
	r_names = {n: (i, opt) for i, (n, opt) in enumerate(r_pos)}
	for i, (name, optional) in enumerate(l_pos):
		if i < len(r_pos) and r_pos[i][0] == name:
			if optional and not r_pos[i][1]:
				problems.append(f"{name} is optional on Lite, required on Frappe")
		elif i >= len(r_pos) and r_var:
			pass
		elif name in r_names and i < r_posonly:
			problems.append(f"{name} at position {i} on Lite, {r_names[name][0]} on Frappe")
		elif name in r_names:
			problems.append(f"{name} at position {i} on Lite, {r_names[name][0]} on Frappe")
		elif name in r_kw:
			problems.append(f"{name} is positional on Lite, keyword-only on Frappe")
		elif r_varkw and not optional:
			pass
		else:
			problems.append(f"parameter {name} does not exist on Frappe")
	for name, optional in l_kw.items():
		if name in r_kw:
			if optional and not r_kw[name]:
				problems.append(f"{name} is optional on Lite, required on Frappe")
		elif name in r_names:
			if optional and not r_names[name][1]:
				problems.append(f"{name} is optional on Lite, required on Frappe")
		elif not r_varkw:
			problems.append(f"keyword {name} does not exist on Frappe")
	if l_var and not r_var:
		problems.append("*args on Lite only")
	if l_varkw and not r_varkw:
		problems.append("**kwargs on Lite only")
	l_names = {n for n, _ in l_pos} | set(l_kw)
	for i, (name, optional) in enumerate(r_pos):
		if not optional and name not in l_names and not (l_var and i >= len(l_pos)):
			problems.append(f"required parameter {name} of Frappe missing on Lite")
	for name, optional in r_kw.items():
		if not optional and name not in l_names and not l_varkw:
			problems.append(f"required keyword {name} of Frappe missing on Lite")
	return problems


# ---------------------------------------------------------------------------------------------
# comparison


def _describe(node: ast.AST | None) -> str:
	if isinstance(node, ast.ClassDef):
		return "class"
	if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
		return "function"
	return "name"


def _real_function(real: Source, module_name: str, node: ast.AST | None):
	"""The def behind a real name when it is a plain alias (`x = y`); else the node itself."""
	seen = 0
	while isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and seen < 5:
		found = real.lookup(module_name, node.value.id)
		if not found:
			return None
		module_name, node = found
		seen += 1
	return node


def differences(lite_root: str | os.PathLike, real_root: str | os.PathLike) -> list[str]:
	"""One line per Lite public name that real Frappe lacks or whose signature differs."""
	lite, real = Source(lite_root), Source(real_root)
	out: list[str] = []
	for module_name in lite.modules():
		if any(part.startswith("_") for part in module_name.split(".")):
			continue
		if real.module(module_name) is None:
			out.append(f"{module_name}: module missing on Frappe")
			continue
		module = lite.module(module_name)
		names = dict(module.defs)
		if module.is_package:  # a package's imports are its API (`frappe.utils.cint`)
			for alias, (source, attr) in module.imports.items():
				if source.split(".")[0] == "frappe" and attr is not None:
					names.setdefault(alias, None)
		for star in module.star_imports:
			if star.split(".")[0] == "frappe":
				for name in lite.public_names(star, own_only=True):
					names.setdefault(name, None)
		for name, node in sorted(names.items()):
			if name.startswith("_"):
				continue
			found = real.lookup(module_name, name)
			qualified = f"{module_name}.{name}"
			if found is None:
				out.append(f"{qualified}: {_describe(node)} missing on Frappe")
				continue
			real_module, real_node = found
			real_node = _real_function(real, real_module, real_node)
			if node is None:
				continue
			if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not _is_overload(real_node):
				for problem in signature_problems(node, real_node):
					out.append(f"{qualified}(): {problem}")
			elif isinstance(node, ast.ClassDef) and isinstance(real_node, ast.ClassDef):
				real_members = real.class_members(real_module, real_node)
				for fieldname in _doctype_fields(real, real_module, real_node):
					real_members.setdefault(fieldname, None)
				for extra in CLASS_EXTRAS.get(f"{real_module}.{name}", []):
					extra_module, _, extra_class = extra.rpartition(".")
					extra_node = real.module(extra_module).defs.get(extra_class)
					if extra_node is not None:
						real_members = {**real.class_members(extra_module, extra_node), **real_members}
				lite_members = {
					k: v
					for k, v in lite.class_members(module_name, node).items()
					if k in _own_members(node) or k not in real_members
				}
				for member, member_node in sorted(lite_members.items()):
					if member.startswith("_") and member != "__init__":
						continue
					if member not in real_members:
						if member != "__init__" and EXTERNAL_BASE not in real_members:
							out.append(f"{qualified}.{member}: {_describe(member_node)} missing on Frappe")
						continue
					real_member = real_members[member]
					if _is_overload(real_member):
						continue
					for problem in signature_problems(member_node, real_member, method=True):
						out.append(f"{qualified}.{member}(): {problem}")
	return out


STANDARD_FIELDS = (
	"name owner creation modified modified_by docstatus idx parent parentfield parenttype doctype".split()
)


def _doctype_fields(real: Source, module_name: str, node: ast.ClassDef) -> list[str]:
	"""Fields of the DocType behind a controller (or, for Meta, of DocType): attributes of its documents."""
	if module_name == "frappe.model.meta" and node.name == "Meta":
		json_path = real.root / "frappe" / "core" / "doctype" / "doctype" / "doctype.json"
	else:
		found = real.module_path(module_name)
		if not found or "doctype" not in module_name.split("."):
			return list(STANDARD_FIELDS)
		json_path = found[0].with_suffix(".json")
	if not json_path.is_file():
		return list(STANDARD_FIELDS)
	data = json.loads(json_path.read_text())
	return list(STANDARD_FIELDS) + [df["fieldname"] for df in data.get("fields", []) if df.get("fieldname")]


def _own_members(node: ast.ClassDef) -> set[str]:
	names = set()
	for child in node.body:
		if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
			names.add(child.name)
		elif isinstance(child, ast.Assign):
			names |= {t.id for t in child.targets if isinstance(t, ast.Name)}
		elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
			names.add(child.target.id)
	return names


def real_frappe_root(variable: str = "FRAPPE_SOURCE") -> Path | None:
	"""The folder holding real Frappe's `frappe` package: $FRAPPE_SOURCE (16) or /tmp/fsrc/frappe;
	$FRAPPE_15_SOURCE for Frappe 15."""
	for candidate in (os.environ.get(variable), "/tmp/fsrc/frappe" if variable == "FRAPPE_SOURCE" else None):
		if candidate and (Path(candidate) / "frappe" / "__init__.py").is_file():
			return Path(candidate)
	return None


LITE_ROOT = Path(__file__).resolve().parents[2] / "lite"

if __name__ == "__main__":
	root = sys.argv[1] if len(sys.argv) > 1 else real_frappe_root()
	if not root:
		sys.exit("real Frappe's source not found (pass its folder or set FRAPPE_SOURCE)")
	for line in differences(LITE_ROOT, root):
		print(line)
