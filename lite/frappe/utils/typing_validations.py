"""Argument types of whitelisted functions, checked (and coerced) against their annotations, as in Frappe.

In a request or a test, `@frappe.whitelist()` functions validate their arguments with pydantic: "5" for an
`int` parameter arrives as 5, a value that does not fit raises FrappeTypeError (HTTP 417) naming the
argument, the function, the expected type and the type received. As in Frappe, only evaluated annotations
are checked: a module with `from __future__ import annotations` (string annotations) is not validated.
pydantic is imported on first use (a dependency, as in Frappe), so `import frappe` stays cheap.
"""

from collections.abc import Callable
from functools import lru_cache, wraps
from inspect import _empty, isclass
from types import EllipsisType
from typing import ForwardRef, TypeVar, Union

from frappe.exceptions import FrappeTypeError

SLACK_DICT = {
	bool: (int, bool, float),
}
T = TypeVar("T")


def validate_argument_types(func: Callable, apply_condition: Callable = lambda: True):
	@wraps(func)
	def wrapper(*args, **kwargs):
		"""Validate argument types of whitelisted functions."""
		if apply_condition():
			args, kwargs = transform_parameter_types(func, args, kwargs)

		return func(*args, **kwargs)

	return wrapper


def qualified_name(obj) -> str:
	"""The qualified name (e.g. package.module.Type) of the given object's type (builtins: just the name)."""
	discovered_type = obj if isclass(obj) else type(obj)
	module, qualname = discovered_type.__module__, discovered_type.__qualname__

	if module in {"typing", "types"}:
		return obj
	elif module in {"builtins"}:
		return qualname
	else:
		return f"{module}.{qualname}"


def raise_type_error(
	func: callable,
	arg_name: str,
	arg_type: type,
	arg_value: object,
	current_exception: Exception | None = None,
):
	"""Raise a FrappeTypeError naming the argument, the expected type and the type of the value passed."""
	module, qualname = func.__module__, func.__qualname__
	raise FrappeTypeError(
		f"Argument '{arg_name}' in '{module}.{qualname}' should be of type '{qualified_name(arg_type)}' but got "
		f"'{qualified_name(arg_value)}' instead."
	) from current_exception


@lru_cache(maxsize=2048)
def TypeAdapter(type_):
	from pydantic import ConfigDict, PydanticUserError
	from pydantic import TypeAdapter as PyTypeAdapter

	try:
		return PyTypeAdapter(type_, config=ConfigDict(arbitrary_types_allowed=True))
	except PydanticUserError as e:
		if e.code == "type-adapter-config-unused":
			return PyTypeAdapter(type_)
		raise e


def _is_mock(value) -> bool:
	import sys

	mock = sys.modules.get("unittest.mock")  # only when a test uses mocks (importing it costs ~50 ms)
	return mock is not None and isinstance(value, mock.Mock)


def transform_parameter_types(func: Callable, args: tuple, kwargs: dict):
	"""Validate the arguments passed to `func` against its annotations; the (possibly cast) arguments."""
	if (
		not (args or kwargs)
		or not func.__annotations__
		or (len(func.__annotations__) == 1 and func.__annotations__.get("return"))
	):
		return args, kwargs

	from pydantic import ValidationError as PyValidationError

	import frappe

	annotations = func.__annotations__
	new_args, new_kwargs = list(args), kwargs

	# generate kwargs dict from args
	arg_names = func.__code__.co_varnames[: func.__code__.co_argcount]

	if not args:
		prepared_args = kwargs

	elif kwargs:
		arg_values = args or func.__defaults__ or []
		prepared_args = dict(zip(arg_names, arg_values, strict=False))
		prepared_args.update(kwargs)

	else:
		prepared_args = dict(zip(arg_names, args, strict=False))

	func_params = frappe._get_cached_signature_params(func)[0]

	for current_arg, current_arg_type in annotations.items():
		if current_arg not in prepared_args:
			continue

		current_arg_value = prepared_args[current_arg]

		# if the type is a ForwardRef or str (postponed annotations), ignore it
		if isinstance(current_arg_type, ForwardRef | str):
			continue
		elif any(isinstance(x, ForwardRef | str) for x in getattr(current_arg_type, "__args__", [])):
			continue
		elif _is_mock(current_arg_value):
			continue

		if current_arg_type in SLACK_DICT:
			current_arg_type = SLACK_DICT[current_arg_type]

		param_def = func_params.get(current_arg)

		# add default value's type in acceptable types
		if param_def.default is not _empty:
			if isinstance(current_arg_type, tuple):
				if type(param_def.default) not in current_arg_type:
					current_arg_type += (type(param_def.default),)
				current_arg_type = Union[current_arg_type]  # noqa: UP007

			elif param_def.default != current_arg_type:
				current_arg_type = Union[current_arg_type, type(param_def.default)]  # noqa: UP007
		elif isinstance(current_arg_type, tuple):
			current_arg_type = Union[current_arg_type]  # noqa: UP007

		try:
			current_arg_value_after = TypeAdapter(current_arg_type).validate_python(current_arg_value)
		except (TypeError, PyValidationError) as e:
			raise_type_error(func, current_arg, current_arg_type, current_arg_value, current_exception=e)

		if isinstance(current_arg_value_after, EllipsisType):
			raise_type_error(func, current_arg, current_arg_type, current_arg_value)

		if current_arg in kwargs:
			new_kwargs[current_arg] = current_arg_value_after
		else:
			new_args[arg_names.index(current_arg)] = current_arg_value_after

	return new_args, new_kwargs
