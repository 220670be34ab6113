"""Trigger nodes (a run's start), condition and end."""

from __future__ import annotations

from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import FAILURE, SUCCESS, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.huf.doc_events import DOC_EVENTS
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

SCHEMAS = {
	"trigger.webhook": node_schema(
		"Webhook",
		"Webhook",
		"trigger",
		"Starts when an app posts to the flow's webhook (the key in the X-Huf-Flow-Key header); the JSON body is the payload.",
	),
	"trigger.schedule": node_schema(
		"Schedule",
		"Clock",
		"trigger",
		"Starts on a schedule: a cron expression, or every N minutes.",
		setting("cron", "Cron expression", "string", "Five fields, e.g. */5 * * * * (every 5 minutes)."),
		setting(
			"interval_minutes",
			"Every (minutes)",
			"number",
			"Instead of cron: the minutes between runs, at least 1.",
		),
		setting(
			"timezone",
			"Time zone",
			"string",
			"The time zone the cron expression is read in (default: the site's).",
		),
		setting("schedule_name", "Schedule name", "string", "Optional name for this schedule."),
	),
	"trigger.doc-event": node_schema(
		"Document event",
		"FileText",
		"trigger",
		"Starts when a document is created, saved, submitted, cancelled or deleted; the document is the payload.",
		setting("doctype", "DocType", "doctype_select", "The DocType to listen on.", required=True),
		setting(
			"event",
			"Event",
			"select",
			"The document event.",
			required=True,
			options=list(DOC_EVENTS),
			default="after_insert",
		),
		setting(
			"condition",
			"Condition",
			"expression",
			"Optional: a safe expression over doc, e.g. doc.grand_total > 1000.",
		),
	),
	"condition": node_schema(
		"Condition",
		"GitFork",
		"control",
		"Goes on by the success path when its expression is true, by the failure path when false.",
		setting(
			"condition",
			"Condition",
			"expression",
			"A safe expression over the flow context, e.g. payload.amount > 100.",
			required=True,
		),
	),
	"end": node_schema(
		"End",
		"CheckCircle2",
		"control",
		"The flow ends here with success.",
		setting(
			"output",
			"Output",
			"text",
			"The run's result (default: the last node's output).",
			supports_variables=True,
		),
	),
}
