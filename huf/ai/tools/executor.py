"""The executor of Agent Tool Functions: repair recoverable argument mistakes, then dispatch by type.

Every call goes through `execute(spec, args, context)`: the arguments are repaired and checked
(`huf.ai.tools.arguments`: permission-lifting arguments removed, recoverable shapes repaired, values
coerced to the schema, what is still wrong refused with a message naming the argument), then the
handler of the tool's type (`huf.ai.tools.handlers`) runs as the user the run belongs to.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

from huf.ai.runtime.tools import Tool, ToolContext
from huf.ai.tools.arguments import argument_schema, prepare_arguments, validate_arguments
from huf.ai.tools.handlers import HANDLERS
from huf.ai.tools.spec import ToolSpec
from huf.huf.session_user import acting_as

__all__ = ["FunctionTool", "ToolSpec", "execute"]


class FunctionTool(Tool):
	"""A `Tool` backed by an Agent Tool Function; the loop calls `run`, which is `execute`."""

	def __init__(self, spec: ToolSpec):
		super().__init__(
			name=spec.name,
			description=spec.description,
			parameters=spec.parameters,
			requires_approval=spec.requires_approval,
			client_function=spec.client_function,
		)
		self.spec = spec

	def run(self, args: dict, context: ToolContext) -> Any:
		return execute(self.spec, args, context)


def execute(spec: ToolSpec, args: dict | None, context: ToolContext) -> Any:
	"""Run one call of `spec` with the model's `args` as the run's user."""
	handler = HANDLERS.get(spec.types)
	if handler is None:
		frappe.throw(_("Tool {0} has the type {1}, which cannot be executed.").format(spec.name, spec.types))
	prepared = prepare_arguments(spec, args or {})
	errors = validate_arguments(prepared.args, argument_schema(spec))
	if errors:
		frappe.throw(
			_("Invalid arguments for {0}: {1}. Correct them and call the tool again.").format(
				spec.name, "; ".join(errors)
			)
		)
	previous = frappe.flags.get("huf_tool_context")
	frappe.flags.huf_tool_context = context
	try:
		with acting_as(context.user):
			result = handler(spec, prepared.args, context)
	finally:
		frappe.flags.huf_tool_context = previous
	if prepared.dropped and isinstance(result, dict):
		result = {**result, "ignored_arguments": prepared.dropped}
	return result
