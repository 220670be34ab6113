"""Custom Function and App Provided tools: whitelisted functions and the functions apps declare in `huf_tools`."""

import inspect
from collections.abc import Callable
from typing import Any

import frappe
from frappe import _

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.spec import ToolSpec
from huf.huf.app_tools import find_registered_tool


def call_function(function: Callable, args: dict, as_json: bool = False) -> Any:
	"""Call a tool function with the model's arguments (one dict when `as_json`)."""
	if as_json:
		return function(args)
	try:
		parameters = inspect.signature(function).parameters
	except (TypeError, ValueError):
		return function(**args)
	if any(p.kind == p.VAR_KEYWORD for p in parameters.values()):
		return function(**args)
	return function(**{k: v for k, v in args.items() if k in parameters})


def _resolve(path: str | None, tool: str) -> Callable:
	if not path:
		frappe.throw(_("Tool {0} has no Function Path.").format(tool))
	try:
		function = frappe.get_attr(path)
	except (ImportError, AttributeError, ValueError):
		frappe.throw(_("The function {0} of tool {1} could not be found.").format(path, tool))
	if not callable(function):
		frappe.throw(_("{0} is not a function.").format(path))
	return function


def custom_function(spec: ToolSpec, args: dict, context: ToolContext) -> Any:
	"""A whitelisted function, checked again at every call (it may have lost its decorator)."""
	function = _resolve(spec.function_path, spec.name)
	frappe.is_whitelisted(function)
	return call_function(function, args, spec.pass_parameters_as_json)


def app_provided(spec: ToolSpec, args: dict, context: ToolContext) -> Any:
	"""A function an installed app still declares in its `huf_tools` hook."""
	registered = find_registered_tool(spec.function_path or "")
	if not registered:
		frappe.throw(
			_("Tool {0} is no longer provided by any installed app.").format(spec.name),
			frappe.PermissionError,
		)
	function = _resolve(registered[1]["function_path"], spec.name)
	return call_function(function, args, spec.pass_parameters_as_json)
