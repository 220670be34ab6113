"""Trigger nodes (a run's start), condition and end."""

from __future__ import annotations

from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import FAILURE, SUCCESS, NodeCall, NodeResult
from huf.huf.flow_schema import node_condition


def trigger(call: NodeCall) -> NodeResult:
	"""A trigger node only marks where a run starts: its output is the run's payload."""
	return NodeResult(output=call.context.get("payload"))


def condition(call: NodeCall) -> NodeResult:
	"""Success when the node's expression is true, failure when false (route with on_success / on_failure)."""
	expression = node_condition(call.node)
	if expression is None:
		return NodeResult(
			status=FAILURE, error=_("Condition node {0} has no condition.").format(call.node_id)
		)
	value = bool(
		flow_context.evaluate(expression, call.context, _("The condition of node {0}").format(call.node_id))
	)
	return NodeResult(
		status=SUCCESS if value else FAILURE,
		output=value,
		error=None if value else _("The condition is false."),
	)


def end(call: NodeCall) -> NodeResult:
	"""The run ends here with Success; `output` (a template or a value) becomes the run's result."""
	output = call.config.get("output")
	if output is not None:
		output = flow_context.interpolate(
			output, call.context, _("The output of node {0}").format(call.node_id)
		)
	return NodeResult(output=output if output is not None else call.context.get("last"))


EXECUTORS = {
	"trigger.webhook": trigger,
	"trigger.schedule": trigger,
	"trigger.doc-event": trigger,
	"condition": condition,
	"end": end,
}
