"""Argument values for fuzzing whitelisted functions, chosen from each parameter's annotation.

`accepted_types` reads an annotation the way Frappe's argument validation does (a `bool` also takes
int and float, a default's type is accepted too); `wrong_values` are the JSON values Frappe must refuse
for it and `odd_values` well-typed but unusual ones (empty, 1 MB, NUL, RTL marks, lone surrogates,
emoji, negative and huge numbers) the function must answer without a server error.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

ANY = object

NESTED = {"nested": {"deeper": [1, {"deepest": None}]}}
LIST = [1, "two", {"three": 3}]
NUMBER = 42
TEXT = "not-a-number"
WRONG_CANDIDATES = (("a nested object", NESTED), ("a list", LIST), ("a number", NUMBER), ("text", TEXT))

MEGABYTE = "x" * 1_000_000
ODD_TEXT = (
	("empty text", ""),
	("blank text", "   "),
	("1 MB of text", MEGABYTE),
	("a NUL byte", "before\x00after"),
	("RTL marks", "\u202eevil\u202c\u200f"),
	("a lone surrogate", "half \ud800 pair"),
	("emoji", "👨‍👩‍👧‍👦🔥"),
	("SQL-like text", "'; DROP TABLE `tabAgent`; --"),
	("a path", "../../../../etc/passwd"),
)
ODD_NUMBERS = (("-1", -1), ("0", 0), ("10**20", 10**20), ("-(2**63)", -(2**63)))
ODD_JSON_TEXT = (("invalid JSON", "{not json"), ("a JSON array", "[1, 2]"), ("a JSON object", '{"a": 1}'))
ODD_OBJECTS = (("an empty object", {}), ("an object with a NUL", {"k\x00": "v\x00"}))
ODD_LISTS = (("an empty list", []), ("a list of null", [None]), ("a list with a surrogate", ["\ud800"]))


def target_function(fn: Callable) -> Callable:
	"""The function under Frappe's validation wrapper."""
	return inspect.unwrap(fn)


def parameters(fn: Callable) -> dict[str, inspect.Parameter]:
	"""Named parameters of `fn` (self, *args and **kwargs left out)."""
	return {
		name: parameter
		for name, parameter in inspect.signature(target_function(fn)).parameters.items()
		if name != "self" and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
	}


def annotations(fn: Callable) -> dict[str, Any]:
	"""The evaluated annotations of `fn` (postponed ones resolved), by parameter name."""
	return typing.get_type_hints(target_function(fn))


def accepted_types(annotation: Any, default: Any = inspect.Parameter.empty) -> set[type]:
	"""The Python types Frappe's validation lets through for a parameter (ANY: everything)."""
	found: set[type] = set()
	_collect(annotation, found)
	if bool in found:
		found |= {int, float}
	if default is not inspect.Parameter.empty:
		found.add(type(default))
	return found


def _collect(annotation: Any, found: set[type]) -> None:
	if annotation in (Any, inspect.Parameter.empty, object):
		found.add(ANY)
		return
	if annotation is None or annotation is type(None):
		found.add(type(None))
		return
	origin = typing.get_origin(annotation)
	if origin in (typing.Union, types.UnionType):
		for argument in typing.get_args(annotation):
			_collect(argument, found)
		return
	if origin is typing.Literal:
		found.update(type(argument) for argument in typing.get_args(annotation))
		return
	found.add(origin or annotation)


def is_wrong(value: Any, accepted: set[type]) -> bool:
	"""Whether Frappe's validation refuses `value` for a parameter taking `accepted` types."""
	if ANY in accepted:
		return False
	if isinstance(value, dict):
		return dict not in accepted
	if isinstance(value, list):
		return list not in accepted
	if isinstance(value, int):
		return not accepted & {int, float, bool}
	return str not in accepted


def wrong_values(accepted: set[type]) -> list[tuple[str, Any]]:
	"""(label, value) pairs Frappe must refuse for a parameter taking `accepted` types."""
	return [(label, value) for label, value in WRONG_CANDIDATES if is_wrong(value, accepted)]


def odd_values(accepted: set[type]) -> list[tuple[str, Any]]:
	"""(label, value) pairs of the right type, but empty, huge, oddly encoded or out of range."""
	if ANY in accepted:
		accepted = {str, int, dict, list}
	values: list[tuple[str, Any]] = []
	if str in accepted:
		values += ODD_TEXT
		if accepted & {dict, list}:
			values += ODD_JSON_TEXT
	if accepted & {int, float}:
		values += ODD_NUMBERS
	if dict in accepted:
		values += ODD_OBJECTS
	if list in accepted:
		values += ODD_LISTS
	return values
