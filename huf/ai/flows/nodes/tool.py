"""tool.call: run one Agent Tool Function with arguments from the flow context, without a model.

The call goes through the agents' own tool executor (`huf.ai.tools.executor.execute`: argument
repair and checks, dispatch by type, every handler's permission checks) as the flow run's acting
user, who must hold tools.use and be allowed to read the Agent Tool Function. The node's output is the
tool's result; a tool that raises, or answers `success: false`, fails the node (so on_failure edges
apply).
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import strip_html

from huf.ai.flows import context as flow_context
from huf.ai.flows.graph import config_value
from huf.ai.flows.nodes.base import FAILURE, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.executor import execute as execute_tool
from huf.ai.tools.spec import ToolSpec
from huf.huf.capability_access import name_missing_read_capability
from huf.huf.session_user import acting_as

FLOW_AGENT = ""  # a flow's tool call belongs to no agent


def tool_call(call: NodeCall) -> NodeResult:
	tool = config_value(call.config, "tool", "tool_name")
	if not tool:
		return NodeResult(status=FAILURE, error=_("Tool call node {0} has no tool.").format(call.node_id))
	arguments = config_value(call.config, "arguments", "args", default={})
	arguments = flow_context.interpolate(
		arguments, call.context, _("The arguments of node {0}").format(call.node_id)
	)
	if not isinstance(arguments, dict):
		return NodeResult(
			status=FAILURE,
			error=_("The arguments of node {0} must be an object (argument name: value).").format(
				call.node_id
			),
		)
	result = run_tool(str(tool), arguments, call.user)
	if isinstance(result, dict) and result.get("success") is False:
		return NodeResult(
			status=FAILURE, output=result, error=str(result.get("error") or _("the tool failed"))
		)
	return NodeResult(output=result)


def run_tool(tool: str, arguments: dict, user: str | None = None) -> Any:
	"""The result of Agent Tool Function `tool` called with `arguments` as `user` (default: the session
	user); raises PermissionError when that user lacks tools.use or may not read the tool, and what the
	tool raises."""
	with acting_as(user):
		if not frappe.db.exists("Agent Tool Function", tool):
			frappe.throw(_("Agent Tool Function {0} does not exist.").format(tool), frappe.DoesNotExistError)
		doc = frappe.get_doc("Agent Tool Function", tool)
		if not frappe.has_permission("Agent Tool Function", "read", doc=doc):
			name_missing_read_capability("Agent Tool Function")  # tools.use
			frappe.throw(
				_("{0} may not use the tool {1}: they cannot read that Agent Tool Function.").format(
					frappe.session.user, tool
				),
				frappe.PermissionError,
			)
		spec = ToolSpec.from_doc(doc)
		return execute_tool(spec, arguments, ToolContext(agent=FLOW_AGENT, user=frappe.session.user))


def execute(tool_name: str, args: dict | None = None, user: str | None = None) -> dict:
	"""Run an Agent Tool Function deterministically (no model) as `user`, through the agents' executor.

	Returns {"success": True, "result": ...} or {"success": False, "error": "..."}.
	"""
	try:
		return {"success": True, "result": run_tool(tool_name, args or {}, user)}
	except Exception as e:
		if not isinstance(e, frappe.ValidationError):
			frappe.log_error(title=_("Flow tool {0} failed").format(tool_name))
		return {"success": False, "error": strip_html(str(e)) or type(e).__name__}


EXECUTORS = {"tool.call": tool_call}

SCHEMAS = {
	"tool.call": node_schema(
		"Call tool",
		"Wrench",
		"ai",
		"Runs one tool with fixed arguments, without a model, as the run's user.",
		setting("tool", "Tool", "tool_select", "The Agent Tool Function.", required=True),
		setting(
			"arguments",
			"Arguments",
			"json",
			"An object; its texts may hold {{ }} placeholders.",
			supports_variables=True,
		),
	),
}
