"""Safe expressions: conditions of Doc Event triggers and flow edges, `{{ }}` placeholders of prompts.

An expression is parsed with `ast` and checked against a whitelist before it runs: literals, names,
reading fields (`doc.status` reads the key "status" of a record), indexing and slicing, comparisons
(`==`, `<`, `in`, `is`...), `and`/`or`/`not`, arithmetic with bounded results and `x if c else y`.
Nothing can be called (no functions, methods, lambdas, comprehensions, f-strings or `%` formatting),
no name or field may start with `__`, and length, nesting and result sizes are bounded: an operation
whose result would be too large is refused before it is built (at check time already when its operands
are literals), and `render` stops as soon as its text passes `MAX_RENDER_LENGTH`. It runs on a
snapshot of plain values (`snapshot`, `document_snapshot`): dicts, lists, strings, numbers, booleans
and None, so there is nothing it could call or change even if a check were missed.
"""

from __future__ import annotations

import ast
import datetime
import decimal
import json
import operator
import re
import warnings
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain
from typing import Any

import frappe
from frappe import _

MAX_LENGTH = 2_000  # characters of one expression
MAX_DEPTH = 30  # nesting of the parsed expression
MAX_NODES = 400  # parts of one expression
MAX_SIZE = 10_000  # characters or items of a value an expression computes
MAX_INT_BITS = 256  # integers an expression computes
MAX_TEMPLATE_LENGTH = 20_000
MAX_RENDER_LENGTH = 100_000  # characters a template renders (the longest prompt a run accepts)
MAX_VALUE_DEPTH = 32  # nesting of the values given to an expression

# Fields that hold no value, or one an expression must never see (Password fields).
HIDDEN_FIELDTYPES = frozenset(
	("Section Break", "Column Break", "Tab Break", "HTML", "Button", "Image", "Fold", "Heading", "Password")
)
TABLE_FIELDTYPES = ("Table", "Table MultiSelect")
STANDARD_FIELDS = ("name", "owner", "creation", "modified", "modified_by", "docstatus", "idx")

BINARY = {
	ast.Add: ("+", operator.add),
	ast.Sub: ("-", operator.sub),
	ast.Mult: ("*", operator.mul),
	ast.Div: ("/", operator.truediv),
	ast.FloorDiv: ("//", operator.floordiv),
	ast.Mod: ("%", operator.mod),
	ast.Pow: ("**", operator.pow),
}
UNARY = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}
COMPARE = {
	ast.Eq: operator.eq,
	ast.NotEq: operator.ne,
	ast.Lt: operator.lt,
	ast.LtE: operator.le,
	ast.Gt: operator.gt,
	ast.GtE: operator.ge,
	ast.In: lambda a, b: a in b,
	ast.NotIn: lambda a, b: a not in b,
	ast.Is: operator.is_,
	ast.IsNot: operator.is_not,
}
OPERATOR_SYMBOLS = {
	ast.BitAnd: "&",
	ast.BitOr: "|",
	ast.BitXor: "^",
	ast.LShift: "<<",
	ast.RShift: ">>",
	ast.MatMult: "@",
	ast.Invert: "~",
}
STRUCTURE = (
	ast.Expression,
	ast.Constant,
	ast.Name,
	ast.Attribute,
	ast.Subscript,
	ast.Slice,
	ast.Compare,
	ast.BoolOp,
	ast.UnaryOp,
	ast.BinOp,
	ast.IfExp,
	ast.List,
	ast.Tuple,
	ast.Set,
	ast.Dict,
	ast.Load,
	ast.And,
	ast.Or,
	*BINARY,
	*UNARY,
	*COMPARE,
)
REFUSED = {
	ast.Lambda: "lambdas are not allowed.",
	ast.ListComp: "comprehensions are not allowed.",
	ast.SetComp: "comprehensions are not allowed.",
	ast.DictComp: "comprehensions are not allowed.",
	ast.GeneratorExp: "generator expressions are not allowed.",
	ast.JoinedStr: "f-strings are not allowed.",
	ast.FormattedValue: "f-strings are not allowed.",
	ast.NamedExpr: "assignments (:=) are not allowed.",
	ast.Starred: "unpacking (*) is not allowed.",
	ast.Await: "await is not allowed.",
	ast.Yield: "yield is not allowed.",
	ast.YieldFrom: "yield is not allowed.",
}
SCALARS = (str, int, float, bool, type(None))
SEQUENCES = (str, list, tuple)
PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)


class ExpressionError(frappe.ValidationError):
	"""An expression is not allowed, or could not be evaluated on the values given."""


class ExpressionTooLarge(ExpressionError):
	"""A value an expression would build, or the text a template would render, is over the limits."""

	def __init__(self, label: str, reason: str):
		super().__init__(_("{0}: {1}").format(label, reason))
		self.reason = reason


def check(expression: Any, names: Iterable[str] | None = None, label: str | None = None) -> ast.Expression:
	"""The parsed `expression`, or ExpressionError naming what is not allowed.

	`names`: the only names the expression may use (any name but `__...` when None).
	"""
	label = label or _("Expression")
	if not isinstance(expression, str) or not expression.strip():
		_refuse(_("{0} must be a non-empty expression.").format(label))
	names = None if names is None else frozenset(names)
	return _checked(expression.strip(), names, label)


def evaluate(expression: str, values: dict, label: str | None = None) -> Any:
	"""The value of `expression` over a plain snapshot of `values` (checked first; never calls anything)."""
	label = label or _("Expression")
	tree = check(expression, values, label)
	scope = snapshot(values)
	try:
		return _Evaluator(label, scope).run(tree.body)
	except ExpressionError:
		raise
	except (ArithmeticError, TypeError, ValueError, KeyError, IndexError, RecursionError, MemoryError) as e:
		_refuse(_("{0} could not be evaluated: {1}").format(label, _describe(e)))


def check_template(template: Any, names: Iterable[str] | None = None, label: str | None = None) -> None:
	"""Throw ExpressionError unless every `{{ }}` placeholder of `template` is an allowed expression."""
	label = label or _("Template")
	if template in (None, ""):
		return
	if not isinstance(template, str):
		_refuse(_("{0} must be text.").format(label))
	if len(template) > MAX_TEMPLATE_LENGTH:
		_refuse(_("{0} is longer than {1} characters.").format(label, MAX_TEMPLATE_LENGTH))
	for tag in ("{%", "{#"):
		if tag in template:
			_refuse(
				_(
					"{0} is not allowed: {1} tags are not supported; use {{{{ expression }}}} placeholders."
				).format(label, tag)
			)
	for match in PLACEHOLDER.finditer(template):
		check(match.group(1), names, _("{0} placeholder {1}").format(label, match.group(0)[:80]))


def render(template: str, values: dict, label: str | None = None) -> str:
	"""`template` with each `{{ expression }}` replaced by its value over a snapshot of `values`."""
	label = label or _("Template")
	check_template(template, values, label)
	template = template or ""
	output = _Output(label)
	position = 0
	for match in PLACEHOLDER.finditer(template):
		output.write(template[position : match.start()])
		value = evaluate(match.group(1), values, _("{0} placeholder {1}").format(label, match.group(0)[:80]))
		if isinstance(value, str):
			output.write(value)
		elif value is not None:
			for chunk in json.JSONEncoder(default=str).iterencode(value):
				output.write(chunk)
		position = match.end()
	output.write(template[position:])
	return output.text()


def size_of(value: Any, limit: int = MAX_SIZE) -> int:
	"""Characters and items of `value` and of everything nested in it (each item counts at least one, a
	nested list or record one more than its items; one held twice counts twice); stops past `limit`."""
	if isinstance(value, str):
		return len(value)
	if not isinstance(value, list | tuple | set | dict):
		return 1
	total = 0
	pending = [_items(value)]
	while pending and total <= limit:
		item = next(pending[-1], _END)
		if item is _END:
			pending.pop()
		elif isinstance(item, str):
			total += max(len(item), 1)
		else:
			total += 1
			if isinstance(item, list | tuple | set | dict) and item:
				pending.append(_items(item))
	return total


def snapshot(value: Any, depth: int = 0) -> Any:
	"""A deep copy of `value` made of plain values only (dates become text, tuples lists)."""
	if depth > MAX_VALUE_DEPTH:
		_refuse(_("The values are nested more than {0} levels deep.").format(MAX_VALUE_DEPTH))
	if isinstance(value, SCALARS):
		return value
	if isinstance(value, dict):
		return {str(key): snapshot(item, depth + 1) for key, item in value.items()}
	if isinstance(value, list | tuple):
		return [snapshot(item, depth + 1) for item in value]
	if isinstance(value, datetime.date | datetime.time | datetime.timedelta):
		return str(value)
	if isinstance(value, decimal.Decimal):
		return float(value)
	_refuse(_("A value of type {0} cannot be used in an expression.").format(type(value).__name__))


def document_snapshot(doc: Any) -> dict:
	"""The document's values as plain data: standard fields, every field (child tables as lists of rows),
	Password and layout fields absent."""
	values: dict[str, Any] = {"doctype": doc.doctype}
	for fieldname in STANDARD_FIELDS:
		values[fieldname] = snapshot(doc.get(fieldname))
	for df in frappe.get_meta(doc.doctype).fields:
		if df.fieldtype in HIDDEN_FIELDTYPES:
			continue
		value = doc.get(df.fieldname)
		if df.fieldtype in TABLE_FIELDTYPES:
			values[df.fieldname] = [document_snapshot(row) for row in value or []]
		else:
			values[df.fieldname] = snapshot(value)
	return values


# --- checking ------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _checked(expression: str, names: frozenset | None, label: str) -> ast.Expression:
	if len(expression) > MAX_LENGTH:
		_refuse(_("{0} is longer than {1} characters.").format(label, MAX_LENGTH))
	try:
		with warnings.catch_warnings():
			warnings.simplefilter("ignore")  # e.g. SyntaxWarning for `x is 1`: the check below decides
			tree = ast.parse(expression, mode="eval")
	except SyntaxError as e:
		_refuse(_("{0} is not a valid expression: {1}").format(label, e.msg))
	except (ValueError, RecursionError, MemoryError):
		_refuse(_("{0} is not a valid expression.").format(label))
	count = 0
	stack = [(tree, 0)]
	while stack:
		node, depth = stack.pop()
		count += 1
		if depth > MAX_DEPTH:
			_refuse(_("{0} is not allowed: it is nested more than {1} levels deep.").format(label, MAX_DEPTH))
		if count > MAX_NODES:
			_refuse(_("{0} is not allowed: it has more than {1} parts.").format(label, MAX_NODES))
		reason = _refusal(node, names)
		if reason:
			_refuse(_("{0} is not allowed: {1}").format(label, reason))
		# children in reverse, so the first refusal named is the leftmost in the text
		stack.extend((child, depth + 1) for child in reversed(list(ast.iter_child_nodes(node))))
	_Folder(label).check(tree.body)
	return tree


def _refusal(node: ast.AST, names: frozenset | None) -> str | None:
	"""Why `node` is not allowed (None when it is)."""
	if isinstance(node, ast.Call):
		return _("calling {0}(...) is not allowed; an expression can only read and compare values.").format(
			_source(node.func)
		)
	kind = type(node)
	if kind in REFUSED:
		return _(REFUSED[kind])
	if kind in OPERATOR_SYMBOLS:
		return _("the operator {0} is not allowed.").format(OPERATOR_SYMBOLS[kind])
	if kind not in STRUCTURE:
		return _("{0} is not allowed.").format(_source(node) if hasattr(node, "lineno") else kind.__name__)
	if isinstance(node, ast.Name):
		if node.id.startswith("__"):
			return _("the name {0} is not allowed.").format(node.id)
		if names is not None and node.id not in names:
			return _("unknown name {0}; it may use only {1}.").format(
				node.id, ", ".join(sorted(names)) or _("literals")
			)
	if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
		return _("the field {0} is not allowed.").format(node.attr)
	if isinstance(node, ast.Constant):
		if not isinstance(node.value, SCALARS):
			return _("the value {0} is not allowed.").format(_source(node))
		if isinstance(node.value, int) and node.value.bit_length() > MAX_INT_BITS:
			return _("the number {0}... is too large.").format(str(node.value)[:20])
	if isinstance(node, ast.Dict) and any(key is None for key in node.keys):
		return _("unpacking (**) is not allowed.")
	if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _is_text(node.left):
		return _("formatting text with % is not allowed.")
	return None


def _is_text(node: ast.AST) -> bool:
	return isinstance(node, ast.Constant) and isinstance(node.value, str)


# --- evaluating ----------------------------------------------------------------------------------


class _Evaluator:
	"""Walks a checked expression over plain values."""

	def __init__(self, label: str, scope: dict):
		self.label = label
		self.scope = scope

	def run(self, node: ast.AST) -> Any:
		method = getattr(self, f"_{type(node).__name__}", None)
		if method is None:  # never after `check`; refused again here all the same
			_refuse(_("{0} is not allowed: {1} is not allowed.").format(self.label, type(node).__name__))
		return method(node)

	def _Constant(self, node: ast.Constant) -> Any:
		return node.value

	def _Name(self, node: ast.Name) -> Any:
		if node.id not in self.scope:
			_refuse(_("{0}: unknown name {1}.").format(self.label, node.id))
		return self.scope[node.id]

	def _Attribute(self, node: ast.Attribute) -> Any:
		value = self.run(node.value)
		if not isinstance(value, dict):
			_refuse(
				_("{0}: {1} is a {2}, which has no field {3}.").format(
					self.label, _source(node.value), _type_name(value), node.attr
				)
			)
		if node.attr not in value:
			_refuse(_("{0}: {1} has no field {2}.").format(self.label, _source(node.value), node.attr))
		return value[node.attr]

	def _Subscript(self, node: ast.Subscript) -> Any:
		value = self.run(node.value)
		key = self.run(node.slice)
		if isinstance(value, dict):
			if not isinstance(key, str | int | float | bool | type(None)) or key not in value:
				_refuse(_("{0}: {1} has no key {2}.").format(self.label, _source(node.value), repr(key)[:80]))
			return value[key]
		if not isinstance(value, SEQUENCES):
			_refuse(_("{0}: {1} cannot be indexed.").format(self.label, _type_name(value)))
		if not isinstance(key, int | slice):
			_refuse(_("{0}: an index must be a whole number.").format(self.label))
		try:
			return value[key]
		except IndexError:
			_refuse(_("{0}: index {1} is out of range.").format(self.label, key))

	def _Slice(self, node: ast.Slice) -> slice:
		parts = [None if part is None else self.run(part) for part in (node.lower, node.upper, node.step)]
		if any(part is not None and (not isinstance(part, int) or isinstance(part, bool)) for part in parts):
			_refuse(_("{0}: slice bounds must be whole numbers.").format(self.label))
		if parts[2] == 0:
			_refuse(_("{0}: a slice step cannot be zero.").format(self.label))
		return slice(*parts)

	def _Compare(self, node: ast.Compare) -> bool:
		left = self.run(node.left)
		for op, comparator in zip(node.ops, node.comparators, strict=True):
			right = self.run(comparator)
			try:
				result = COMPARE[type(op)](left, right)
			except TypeError:
				_refuse(
					_("{0}: cannot compare {1} with {2}.").format(
						self.label, _type_name(left), _type_name(right)
					)
				)
			if not result:
				return False
			left = right
		return True

	def _BoolOp(self, node: ast.BoolOp) -> Any:
		is_and = isinstance(node.op, ast.And)
		value = None
		for operand in node.values:
			value = self.run(operand)
			if bool(value) != is_and:
				return value
		return value

	def _UnaryOp(self, node: ast.UnaryOp) -> Any:
		value = self.run(node.operand)
		if not isinstance(node.op, ast.Not) and not _is_number(value):
			_refuse(_("{0}: {1} is not a number.").format(self.label, _type_name(value)))
		return UNARY[type(node.op)](value)

	def _BinOp(self, node: ast.BinOp) -> Any:
		symbol, function = BINARY[type(node.op)]
		left, right = self.run(node.left), self.run(node.right)
		self._check_operands(symbol, left, right)
		try:
			result = function(left, right)
		except ZeroDivisionError:
			_refuse(_("{0}: division by zero.").format(self.label))
		except OverflowError:
			self._too_large(_("the result of {0} is too large.").format(symbol))
		except TypeError:
			_refuse(
				_("{0}: {1} cannot be applied to {2} and {3}.").format(
					self.label, symbol, _type_name(left), _type_name(right)
				)
			)
		return self._bounded(result, symbol)

	def _check_operands(self, symbol: str, left: Any, right: Any) -> None:
		"""Refuse an operation whose result would be too large before computing it."""
		if symbol == "%" and not (_is_number(left) and _is_number(right)):
			_refuse(_("{0}: % works on numbers only (formatting text is not allowed).").format(self.label))
		if symbol == "**":
			if not (_is_number(left) and _is_number(right)):
				_refuse(_("{0}: ** works on numbers only.").format(self.label))
			if isinstance(left, int) and isinstance(right, int) and right > 0:
				if max(left.bit_length(), 1) * right > MAX_INT_BITS:
					self._too_large(_("the result of ** is too large."))
		if symbol == "*":
			for sequence, times in ((left, right), (right, left)):
				if isinstance(sequence, SEQUENCES) and isinstance(times, int):
					if max(times, 0) and size_of(sequence) * times > MAX_SIZE:
						self._too_large(_("the result of * would be longer than {0}.").format(MAX_SIZE))
		if symbol == "+" and isinstance(left, SEQUENCES) and isinstance(right, SEQUENCES):
			if size_of(left) + size_of(right) > MAX_SIZE:
				self._too_large(_("the result of + would be longer than {0}.").format(MAX_SIZE))

	def _too_large(self, reason: str) -> None:
		raise ExpressionTooLarge(self.label, reason)

	def _bounded(self, value: Any, symbol: str) -> Any:
		if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
			self._too_large(_("the result of {0} is too large.").format(symbol))
		if isinstance(value, (*SEQUENCES, dict, set)) and size_of(value) > MAX_SIZE:
			self._too_large(_("the result of {0} is longer than {1}.").format(symbol, MAX_SIZE))
		if not isinstance(value, SCALARS + (list, tuple, set, dict)):
			_refuse(_("{0}: the result of {1} is not a plain value.").format(self.label, symbol))
		return value

	def _IfExp(self, node: ast.IfExp) -> Any:
		return self.run(node.body) if self.run(node.test) else self.run(node.orelse)

	def _List(self, node: ast.List) -> list:
		return [self.run(item) for item in node.elts]

	def _Tuple(self, node: ast.Tuple) -> tuple:
		return tuple(self.run(item) for item in node.elts)

	def _Set(self, node: ast.Set) -> set:
		try:
			return {self.run(item) for item in node.elts}
		except TypeError:
			_refuse(_("{0}: a set may hold only text, numbers, booleans and None.").format(self.label))

	def _Dict(self, node: ast.Dict) -> dict:
		try:
			return {self.run(key): self.run(value) for key, value in zip(node.keys, node.values, strict=True)}
		except TypeError:
			_refuse(_("{0}: dictionary keys must be text, numbers, booleans or None.").format(self.label))


class _Unknown(Exception):
	"""A part of an expression whose value is known only when it runs."""


class _Folder(_Evaluator):
	"""Evaluates the literal parts of a checked expression to refuse what is too large whatever the
	values: `[0] * 10 ** 12`, `10 ** 10 ** 10`, `[doc.x] * 10 ** 12` (an unknown item counts one)."""

	def __init__(self, label: str):
		super().__init__(label, {})
		self.folded: dict[int, Any] = {}

	def check(self, root: ast.AST) -> None:
		for node in reversed(list(ast.walk(root))):  # the innermost part too large is the one named
			try:
				self.run(node)
			except _Unknown:
				pass
			except ExpressionTooLarge as e:
				_refuse(_("{0} is not allowed: {1} ({2})").format(self.label, e.reason, _source(node)))

	def run(self, node: ast.AST) -> Any:
		if id(node) not in self.folded:
			try:
				self.folded[id(node)] = super().run(node)
			except ExpressionTooLarge:
				raise
			except (ExpressionError, ArithmeticError, TypeError, ValueError, KeyError, IndexError) as e:
				self.folded[id(node)] = _Unknown(e)
		value = self.folded[id(node)]
		if isinstance(value, _Unknown):
			raise value
		return value

	def _Name(self, node: ast.Name) -> Any:
		raise _Unknown(node.id)

	def _List(self, node: ast.List) -> list:
		return [self._item(item) for item in node.elts]

	def _Tuple(self, node: ast.Tuple) -> tuple:
		return tuple(self._item(item) for item in node.elts)

	def _item(self, node: ast.AST) -> Any:
		try:
			return self.run(node)
		except _Unknown:
			return None  # the smallest value it could have


# --- helpers -------------------------------------------------------------------------------------


_END = object()


def _items(value: list | tuple | set | dict) -> Iterable:
	return chain.from_iterable(value.items()) if isinstance(value, dict) else iter(value)


def _refuse(message: str) -> None:
	raise ExpressionError(message)


class _Output:
	"""Text rendered piece by piece, refused as soon as it passes `MAX_RENDER_LENGTH`."""

	def __init__(self, label: str):
		self.label = label
		self.parts: list[str] = []
		self.length = 0

	def write(self, text: str) -> None:
		self.length += len(text)
		if self.length > MAX_RENDER_LENGTH:
			raise ExpressionTooLarge(
				self.label,
				_("the rendered text would be longer than {0} characters.").format(MAX_RENDER_LENGTH),
			)
		self.parts.append(text)

	def text(self) -> str:
		return "".join(self.parts)


def _is_number(value: Any) -> bool:
	return isinstance(value, int | float)


def _type_name(value: Any) -> str:
	if value is None:
		return "None"
	return {
		dict: "record",
		list: "list",
		tuple: "list",
		str: "text",
		bool: "boolean",
		int: "number",
		float: "number",
	}.get(type(value), type(value).__name__)


def _source(node: ast.AST) -> str:
	try:
		text = ast.unparse(node)
	except Exception:
		text = type(node).__name__
	return text if len(text) <= 60 else text[:57] + "..."


def _describe(error: BaseException) -> str:
	return str(error)[:200] or type(error).__name__
