"""transform: write flow variables (context vars) with copy, map, template, concat and split operations.

Operations run in order; each sees the variables the earlier ones wrote. The node's output is the
variables it wrote, and they are merged into `vars` (readable by their own names afterwards).
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.graph import config_value
from huf.ai.flows.nodes.base import NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting

MAX_ITEMS = 1_000  # items one map operation goes through
RESERVED = frozenset(("payload", "trigger", "vars", "nodes", "last", "input", "result", "state"))


class TransformError(frappe.ValidationError):
	"""An operation of a transform node is wrong (the message names the node and the operation)."""


def transform(call: NodeCall) -> NodeResult:
	operations = config_value(call.config, "operations", "ops", default=[])
	if isinstance(operations, str):
		try:
			operations = json.loads(operations)
		except ValueError:
			operations = None
	if not isinstance(operations, list) or not operations:
		raise TransformError(
			_("Transform node {0} needs a list of operations (copy, map, template, concat, split).").format(
				call.node_id
			)
		)
	written: dict[str, Any] = {}
	context = {**call.context, "vars": dict(call.context.get("vars") or {})}
	for position, operation in enumerate(operations, 1):
		label = _("Operation {0} of transform node {1}").format(position, call.node_id)
		if not isinstance(operation, dict):
			raise TransformError(_("{0} must be an object with op and to.").format(label))
		op = str(operation.get("op") or operation.get("type") or "").strip().lower()
		label = _("Operation {0} ({1}) of transform node {2}").format(position, op or "?", call.node_id)
		apply = OPERATIONS.get(op)
		if apply is None:
			raise TransformError(_("{0}: unknown op; use one of {1}.").format(label, ", ".join(OPERATIONS)))
		target = variable_name(operation.get("to"), label)
		value = apply(operation, context, label)
		written[target] = value
		context["vars"][target] = value
	return NodeResult(output=written, vars=written)


def variable_name(value: Any, label: str) -> str:
	name = str(value or "").strip()
	if not name.isidentifier() or name.startswith("__"):
		raise TransformError(
			_("{0}: to must name a variable (letters, digits and _, e.g. total), not {1!r}.").format(
				label, name
			)
		)
	if name in RESERVED:
		raise TransformError(
			_("{0}: {1} is a name of the flow context; choose another variable name.").format(label, name)
		)
	return name


def expression_of(operation: dict, key: str, label: str) -> Any:
	"""The value of the operation's expression `key` (a bare expression or one `{{ }}` placeholder)."""
	expression = operation.get(key)
	if not isinstance(expression, str) or not expression.strip():
		raise TransformError(_("{0} needs {1} (an expression).").format(label, key))
	return expression.strip()


def evaluate(expression: str, context: dict, label: str) -> Any:
	if expression.startswith("{{") and expression.endswith("}}") and expression.count("{{") == 1:
		expression = expression[2:-2].strip()
	return flow_context.evaluate(expression, context, label)


def copy(operation: dict, context: dict, label: str) -> Any:
	return evaluate(expression_of(operation, "from", label), context, label)


def map_items(operation: dict, context: dict, label: str) -> list:
	items = as_list(evaluate(expression_of(operation, "from", label), context, label), label)
	expression = expression_of(operation, "expression", label)
	results = []
	for index, item in enumerate(items):
		scope = {**context, "vars": {**context["vars"], "item": item, "index": index}}
		results.append(evaluate(expression, scope, _("{0}, item {1}").format(label, index)))
	return results


def template(operation: dict, context: dict, label: str) -> str:
	text = operation.get("template")
	if not isinstance(text, str):
		raise TransformError(
			_("{0} needs template (text with {{{{ expression }}}} placeholders).").format(label)
		)
	return flow_context.render(text, context, label)


def concat(operation: dict, context: dict, label: str) -> Any:
	sources = operation.get("from")
	if isinstance(sources, str):
		sources = [sources]
	if not isinstance(sources, list) or not sources:
		raise TransformError(_("{0} needs from: a list of expressions.").format(label))
	values = [evaluate(expression_of({"from": source}, "from", label), context, label) for source in sources]
	lists = [isinstance(value, list) for value in values]
	if all(lists):
		return [item for value in values for item in value]
	if any(lists):
		raise TransformError(
			_("{0}: cannot join lists and text; give only lists or only text.").format(label)
		)
	separator = operation.get("separator")
	return ("" if separator is None else str(separator)).join(as_text(value) for value in values)


def split(operation: dict, context: dict, label: str) -> list:
	value = evaluate(expression_of(operation, "from", label), context, label)
	if value is None or value == "":
		return []
	if not isinstance(value, str):
		raise TransformError(_("{0}: from must give text, not {1}.").format(label, type_name(value)))
	separator = operation.get("separator")
	separator = "," if separator is None else str(separator)
	if not separator:
		raise TransformError(_("{0}: separator must not be empty.").format(label))
	parts = value.split(separator)
	return [part.strip() for part in parts] if operation.get("trim", True) else parts


def as_list(value: Any, label: str) -> list:
	if not isinstance(value, list):
		raise TransformError(_("{0}: from must give a list, not {1}.").format(label, type_name(value)))
	if len(value) > MAX_ITEMS:
		raise TransformError(
			_("{0}: the list has {1} items; at most {2} are allowed.").format(label, len(value), MAX_ITEMS)
		)
	return value


def as_text(value: Any) -> str:
	"""How a value reads inside text (the same as in `{{ }}` templates)."""
	if value is None:
		return ""
	return value if isinstance(value, str) else json.dumps(value, default=str)


def type_name(value: Any) -> str:
	if value is None:
		return _("nothing (None)")
	return {dict: "an object", list: "a list", str: "text", bool: "a boolean"}.get(type(value), _("a number"))


OPERATIONS = {"copy": copy, "map": map_items, "template": template, "concat": concat, "split": split}

EXECUTORS = {"transform": transform}

SCHEMAS = {
	"transform": node_schema(
		"Transform",
		"Repeat",
		"transform",
		"Sets flow variables without a model: copy, map, template, concat, split.",
		setting(
			"operations",
			"Operations",
			"transform_list",
			"In order, each {op, to, ...}: copy (from), map (from, expression), template (template), concat (from, separator), split (from, separator, trim).",
			required=True,
		),
	),
}
