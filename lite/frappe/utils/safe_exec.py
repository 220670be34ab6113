"""`safe_eval` / `safe_exec`: run user-supplied Python without imports, dunder access or unsafe builtins.

The code is parsed with `ast` and refused when it imports, names anything starting with "_", defines
classes or async code, or uses `match`. Attribute reads are rewritten into a guard that refuses frame,
code, generator and `format` attributes at run time; attribute writes to modules, classes and functions
are refused too. Only the whitelisted builtins and a fresh `frappe` namespace of read-only helpers exist.
"""

from __future__ import annotations

import ast
import builtins
import functools
import json
import re
import types
import unicodedata
from typing import Any

import frappe
from frappe import _


class ServerScriptNotEnabled(frappe.PermissionError):
	pass


class _RestrictedCodeError(frappe.ValidationError, SyntaxError):
	"""Code refused by the sandbox (also a SyntaxError, as RestrictedPython raises in Frappe)."""


SAFE_EXEC_CONFIG_KEY = "server_script_enabled"
_ALLOWED_UNDERSCORE_NAMES = frozenset({"_", "_dict"})
_UNSAFE_NAMES = frozenset(
	{
		"open", "eval", "exec", "compile", "getattr", "setattr", "delattr", "hasattr", "globals", "locals",
		"vars", "dir", "type", "object", "super", "input", "breakpoint", "help", "memoryview", "classmethod",
		"staticmethod", "property", "exit", "quit", "copyright", "credits", "license",
	}
)  # fmt: skip
UNSAFE_ATTRIBUTES = frozenset(
	{
		"gi_frame", "gi_code", "gi_yieldfrom", "gi_running",
		"cr_frame", "cr_code", "cr_origin", "cr_await",
		"ag_code", "ag_frame", "ag_await",
		"tb_frame", "tb_next",
		"f_back", "f_builtins", "f_code", "f_globals", "f_locals", "f_trace",
		"format", "format_map", "mro",
	}
)  # fmt: skip
_REFUSED_NODES = {
	ast.Import: "import statements are not allowed",
	ast.ImportFrom: "import statements are not allowed",
	ast.ClassDef: "class definitions are not allowed",
	ast.AsyncFunctionDef: "async functions are not allowed",
	ast.AsyncFor: "async for is not allowed",
	ast.AsyncWith: "async with is not allowed",
	ast.Await: "await is not allowed",
	ast.Match: "match statements are not allowed",
}
if hasattr(ast, "TryStar"):
	_REFUSED_NODES[ast.TryStar] = "except* is not allowed"
_UNWRITABLE_TYPES = (
	types.ModuleType,
	types.CodeType,
	types.TracebackType,
	types.FrameType,
	type,
	types.FunctionType,
	types.MethodType,
	types.BuiltinFunctionType,
	functools.partial,
)
_UNREADABLE_TYPES = (types.ModuleType, types.CodeType, types.TracebackType, types.FrameType)
_FIELD_PATTERN = re.compile(r"^(\*|[A-Za-z][A-Za-z0-9_]*(\s+as\s+[A-Za-z][A-Za-z0-9_]*)?)$", re.I)
_ORDER_PATTERN = re.compile(
	r"^\s*[A-Za-z][A-Za-z0-9_]*(\s+(asc|desc))?(\s*,\s*[A-Za-z][A-Za-z0-9_]*(\s+(asc|desc))?)*\s*$", re.I
)


# ---------------------------------------------------------------------------------------------
# entry points


def safe_eval(code: str, eval_globals: dict | None = None, eval_locals: dict | None = None) -> Any:
	"""Evaluate the expression `code` in the sandbox."""
	code_obj = _compile(unicodedata.normalize("NFKC", str(code)), "eval")
	env = _base_globals(for_exec=False)
	if eval_globals:
		env.update(eval_globals)
	env["__builtins__"] = _safe_builtins()
	return eval(code_obj, env, eval_locals)  # noqa: S307 - compiled from a checked, rewritten tree


def safe_exec(
	script: str,
	_globals: dict | None = None,
	_locals: dict | None = None,
	*,
	restrict_commit_rollback: bool = False,
	script_filename: str | None = None,
) -> tuple[dict, dict | None]:
	"""Run `script` in the sandbox (needs `server_script_enabled` in site config, as in Frappe)."""
	if not is_safe_exec_enabled():
		_refuse(
			_(
				"Server Scripts are disabled. Please enable server scripts by setting server_script_enabled in the site config."
			),
			ServerScriptNotEnabled,
			title=_("Server Scripts Disabled"),
		)
	code_obj = _compile(unicodedata.normalize("NFKC", str(script)), "exec")
	exec_globals = get_safe_globals()
	if _globals:
		exec_globals.update(_globals)
	exec_globals["__builtins__"] = _safe_builtins()
	flags = getattr(frappe.local, "flags", None)
	if flags is not None:
		flags.in_safe_exec = (flags.in_safe_exec or 0) + 1
	try:
		exec(code_obj, exec_globals, _locals)  # noqa: S102 - compiled from a checked, rewritten tree
	finally:
		if flags is not None:
			flags.in_safe_exec -= 1
	return exec_globals, _locals


def is_safe_exec_enabled() -> bool:
	conf = getattr(frappe.local, "conf", None) or {}
	return bool(conf.get(SAFE_EXEC_CONFIG_KEY))


# ---------------------------------------------------------------------------------------------
# checking and rewriting the tree


@functools.lru_cache(maxsize=256)
def _compile(code: str, mode: str) -> types.CodeType:
	filename = "<safe_eval>" if mode == "eval" else "<serverscript>"
	try:
		tree = ast.parse(code, filename=filename, mode=mode)
	except SyntaxError as e:
		_refuse(_("Invalid Python code on line {0}: {1}").format(e.lineno, e.msg))
	tree = _Restrictor(mode).visit(tree)
	ast.fix_missing_locations(tree)
	return compile(tree, filename, mode)


class _Restrictor(ast.NodeTransformer):
	"""Refuse unsafe constructs and route attribute access through run-time guards."""

	def __init__(self, mode: str):
		self.mode = mode

	def refuse(self, node: ast.AST, message: str) -> None:
		line = getattr(node, "lineno", None)
		_refuse((_("Line {0}: ").format(line) if line else "") + message)

	def check_name(self, node: ast.AST, name: str | None) -> None:
		if name and name.startswith("_") and name not in _ALLOWED_UNDERSCORE_NAMES:
			self.refuse(node, _('"{0}" is not allowed: names starting with "_" are reserved').format(name))

	def generic_visit(self, node: ast.AST) -> ast.AST:
		message = _REFUSED_NODES.get(type(node))
		if message:
			self.refuse(node, _(message))
		if self.mode == "eval" and isinstance(node, ast.NamedExpr):
			self.refuse(node, _("assignment expressions are not allowed"))
		return super().generic_visit(node)

	def visit_Name(self, node: ast.Name) -> ast.AST:
		self.check_name(node, node.id)
		if node.id in _UNSAFE_NAMES:
			self.refuse(node, _('"{0}" is not allowed in restricted code').format(node.id))
		return node

	def visit_arg(self, node: ast.arg) -> ast.AST:
		self.check_name(node, node.arg)
		return self.generic_visit(node)

	def visit_keyword(self, node: ast.keyword) -> ast.AST:
		self.check_name(node, node.arg)
		return self.generic_visit(node)

	def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
		self.check_name(node, node.name)
		return self.generic_visit(node)

	def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
		self.check_name(node, node.name)
		return self.generic_visit(node)

	def visit_Global(self, node: ast.Global) -> ast.AST:
		for name in node.names:
			self.check_name(node, name)
		return node

	visit_Nonlocal = visit_Global

	def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
		if node.attr.startswith("_") and node.attr not in _ALLOWED_UNDERSCORE_NAMES:
			self.refuse(
				node, _('"{0}" is not allowed: attributes starting with "_" are private').format(node.attr)
			)
		if node.attr in UNSAFE_ATTRIBUTES:
			self.refuse(node, _('"{0}" is an unsafe attribute').format(node.attr))
		self.generic_visit(node)
		if isinstance(node.ctx, ast.Load):
			guard = ast.Name(id="_getattr_", ctx=ast.Load())
			return ast.copy_location(
				ast.Call(func=guard, args=[node.value, ast.Constant(node.attr)], keywords=[]), node
			)
		writer = ast.Call(func=ast.Name(id="_write_", ctx=ast.Load()), args=[node.value], keywords=[])
		node.value = ast.copy_location(writer, node.value)
		return node


# ---------------------------------------------------------------------------------------------
# run-time guards


def _refuse(message: str, exc: type[Exception] = _RestrictedCodeError, title: str | None = None) -> None:
	"""Raise `exc` (and show the message to the user when a site is active)."""
	if getattr(frappe.local, "message_log", None) is not None:
		frappe.throw(message, exc, title=title or _("Code not allowed"))
	raise exc(message)


def _validate_attribute_read(obj: Any, name: str) -> None:
	if not isinstance(name, str) or (name.startswith("_") and name not in _ALLOWED_UNDERSCORE_NAMES):
		_refuse(_('"{0}" is not allowed: attributes starting with "_" are private').format(name))
	if name in UNSAFE_ATTRIBUTES:
		_refuse(_('"{0}" is an unsafe attribute').format(name))
	if isinstance(obj, _UNREADABLE_TYPES):
		_refuse(_("Reading attributes of {0} objects is not allowed").format(type(obj).__name__))


def _getattr_for_exec(obj: Any, name: str, default: Any = None) -> Any:
	# Frappe's server scripts read missing attributes as None
	_validate_attribute_read(obj, name)
	return getattr(obj, name, default)


def _getattr_for_eval(obj: Any, name: str) -> Any:
	_validate_attribute_read(obj, name)
	return getattr(obj, name)


def _write(obj: Any) -> Any:
	if isinstance(obj, _UNWRITABLE_TYPES):
		_refuse(_("Not allowed to write to an object of type {0}").format(type(obj).__name__))
	return obj


def _print(*objects: Any, sep: str = " ", end: str = "\n", **kwargs: Any) -> None:
	"""print() inside scripts goes to `frappe.local.debug_log`, as in Frappe."""
	log = getattr(frappe.local, "debug_log", None)
	if log is not None:
		log.append(sep.join(str(o) for o in objects))


# ---------------------------------------------------------------------------------------------
# what code can see


_SAFE_BUILTINS = {
	name: getattr(builtins, name)
	for name in (
		"abs", "all", "any", "bool", "bytes", "callable", "chr", "dict", "divmod", "enumerate", "filter",
		"float", "frozenset", "hash", "hex", "int", "isinstance", "issubclass", "iter", "len", "list", "map",
		"max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed", "round", "set", "slice",
		"sorted", "str", "sum", "tuple", "zip",
		"ArithmeticError", "AssertionError", "AttributeError", "Exception", "IndexError", "KeyError",
		"LookupError", "NameError", "NotImplementedError", "OverflowError", "RuntimeError", "StopIteration",
		"TypeError", "ValueError", "ZeroDivisionError",
	)
}  # fmt: skip


def _safe_builtins() -> dict:
	safe = dict(_SAFE_BUILTINS)
	safe["print"] = _print
	return safe


class NamespaceDict(frappe._dict):
	"""A `_dict` whose missing attributes raise AttributeError (a namespace, not a record)."""

	def __getattr__(self, key: str) -> Any:
		if key in self:
			return self[key]
		raise AttributeError(f"namespace has no attribute '{key}'")


def _base_globals(for_exec: bool) -> dict:
	return {
		"_getattr_": _getattr_for_exec if for_exec else _getattr_for_eval,
		"_write_": _write,
		"frappe": _frappe_namespace(),
		"_dict": frappe._dict,
		"_": frappe._,
		"json": NamespaceDict(loads=json.loads, dumps=json.dumps),
		"as_json": frappe.as_json,
	}


def get_safe_globals() -> dict:
	"""Globals for `safe_exec` (a fresh copy each time, so scripts cannot change shared state)."""
	return _base_globals(for_exec=True)


def _util(name: str):
	from frappe.utils import html_utils

	return getattr(frappe.utils, name, None) or getattr(html_utils, name)


_SAFE_UTILS = (
	"DATE_FORMAT", "TIME_FORMAT", "DATETIME_FORMAT", "is_invalid_date_string", "getdate", "get_datetime",
	"get_time", "to_timedelta", "get_timedelta", "add_to_date", "add_days", "add_months", "add_years",
	"date_diff", "month_diff", "time_diff", "time_diff_in_seconds", "time_diff_in_hours", "now_datetime",
	"get_timestamp", "get_system_timezone", "now", "nowdate", "today", "nowtime", "get_first_day",
	"get_last_day", "get_year_start", "get_datetime_str", "get_date_str", "get_time_str", "format_date",
	"formatdate", "format_time", "format_datetime", "format_duration", "get_weekdays", "get_weekday",
	"has_common", "flt", "cint", "floor", "ceil", "cstr", "sbool", "rounded", "safe_div", "fmt_money",
	"is_html", "strip_html", "escape_html", "strip", "pretty_date", "comma_or", "comma_and", "comma_sep",
	"new_line_sep", "filter_strip_join", "get_url", "get_host_name", "get_url_to_form", "get_url_to_list",
	"get_link_to_form", "compare", "quoted", "unique", "is_subset", "random_string", "generate_hash",
	"sha256_hash", "get_abbr", "parse_json", "is_json", "cast", "validate_email_address", "validate_url",
	"split_emails",
)  # fmt: skip


def _frappe_namespace() -> NamespaceDict:
	import frappe.utils

	user = getattr(getattr(frappe.local, "session", None), "user", None) or "Guest"
	namespace = NamespaceDict(
		_=frappe._,
		_dict=frappe._dict,
		utils=NamespaceDict({name: _util(name) for name in _SAFE_UTILS}),
		session=NamespaceDict(user=user),
		user=user,
		db=NamespaceDict(
			get_value=_read_get_value,
			get_single_value=_read_get_single_value,
			exists=_read_exists,
			count=_read_count,
		),
		get_list=_read_get_list,
		get_all=_read_get_all,
		throw=frappe.throw,
		msgprint=frappe.msgprint,
		bold=frappe.bold,
		as_json=frappe.as_json,
		parse_json=frappe.parse_json,
		scrub=frappe.scrub,
		get_url=frappe.utils.get_url,
		log=_print,
	)
	namespace.update(_safe_exceptions())
	return namespace


@functools.lru_cache(maxsize=1)
def _safe_exceptions() -> dict:
	import inspect

	import frappe.exceptions

	return {
		name: obj
		for name, obj in vars(frappe.exceptions).items()
		if not name.startswith("_") and inspect.isclass(obj) and issubclass(obj, Exception)
	}


# ---------------------------------------------------------------------------------------------
# read-only database helpers (arguments checked so that no SQL can be smuggled in)


def _check_doctype(doctype: Any) -> str:
	if not isinstance(doctype, str) or not doctype or "`" in doctype or doctype.startswith("_"):
		frappe.throw(_("Invalid DocType: {0}").format(doctype), frappe.DataError)
	frappe.get_meta(doctype)  # only real DocTypes, never internal tables
	return doctype


def _check_fields(fields: Any) -> None:
	if fields is None:
		return
	for field in [fields] if isinstance(fields, str) else fields:
		if not isinstance(field, str) or not _FIELD_PATTERN.match(field.strip()):
			frappe.throw(_("Invalid field name {0}").format(field), frappe.DataError)


def _check_filters(filters: Any) -> None:
	if filters is None or isinstance(filters, int | float):
		return
	if isinstance(filters, str):
		return  # a document name, passed as a parameter
	if isinstance(filters, dict):
		_check_fields(list(filters))
		return
	for f in filters:
		if isinstance(f, dict):
			_check_fields(list(f))
		elif isinstance(f, list | tuple) and len(f) in (2, 3, 4):
			_check_fields(f[1] if len(f) == 4 else f[0])
		else:
			frappe.throw(_("Invalid filter: {0}").format(f), frappe.DataError)


def _check_order_by(order_by: Any) -> None:
	if order_by and (not isinstance(order_by, str) or not _ORDER_PATTERN.match(order_by)):
		frappe.throw(_("Invalid order_by: {0}").format(order_by), frappe.DataError)


def _read_get_value(
	doctype: str,
	filters: Any = None,
	fieldname: Any = "name",
	as_dict: bool = False,
	order_by: str | None = None,
	**kwargs: Any,
) -> Any:
	_check_doctype(doctype)
	_check_filters(filters)
	_check_fields(fieldname)
	_check_order_by(order_by)
	if order_by:
		return frappe.db.get_value(doctype, filters, fieldname, as_dict=as_dict, order_by=order_by)
	return frappe.db.get_value(doctype, filters, fieldname, as_dict=as_dict)


def _read_get_single_value(doctype: str, fieldname: str) -> Any:
	_check_doctype(doctype)
	_check_fields(fieldname)
	return frappe.db.get_single_value(doctype, fieldname)


def _read_exists(doctype: str, filters: Any = None, **kwargs: Any) -> Any:
	_check_doctype(doctype)
	_check_filters(filters)
	return frappe.db.exists(doctype, filters)


def _read_count(doctype: str, filters: Any = None, **kwargs: Any) -> int:
	_check_doctype(doctype)
	_check_filters(filters)
	return frappe.db.count(doctype, filters)


_LIST_ARGS = (
	"filters",
	"or_filters",
	"fields",
	"order_by",
	"limit",
	"limit_start",
	"limit_page_length",
	"page_length",
	"pluck",
	"as_list",
)


def _list_kwargs(doctype: str, args: tuple, kwargs: dict) -> dict:
	_check_doctype(doctype)
	unknown = set(kwargs) - set(_LIST_ARGS)
	if unknown:
		frappe.throw(
			_("Arguments not allowed here: {0}").format(", ".join(sorted(unknown))), frappe.DataError
		)
	if len(args) > 3:
		frappe.throw(_("Pass list arguments by name"), frappe.DataError)
	kwargs = dict(zip(("fields", "filters", "or_filters"), args, strict=False), **kwargs)
	fields = kwargs.get("fields")
	if isinstance(fields, dict) or (
		isinstance(fields, list) and fields and isinstance(fields[0], list | tuple)
	):
		kwargs["fields"], kwargs["filters"] = (
			kwargs.get("filters"),
			fields,
		)  # filters given first, as Frappe allows
	_check_filters(kwargs.get("filters"))
	_check_filters(kwargs.get("or_filters"))
	_check_fields(kwargs.get("fields"))
	_check_fields(kwargs.get("pluck") or None)
	_check_order_by(kwargs.get("order_by"))
	return kwargs


def _read_get_list(doctype: str, *args: Any, **kwargs: Any) -> list:
	return frappe.get_list(doctype, **_list_kwargs(doctype, args, kwargs))


def _read_get_all(doctype: str, *args: Any, **kwargs: Any) -> list:
	return frappe.get_all(doctype, **_list_kwargs(doctype, args, kwargs))
