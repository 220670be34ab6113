"""Flow runs for people and agents: start one by hand, read one, list runs, give a waiting run its input.

The caller (huf.ai.flow_api) has checked access (huf.ai.flows.access); runs started here act as the
caller (trigger type Manual).
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.flows import context as flow_context
from huf.ai.flows.engine import FlowRunError, cancel_flow_run, resume_waiting_run, start_flow_run

MODES = ("Normal", "Agentic")
CONVERSATION_MODES = ("shared", "new")
LIST_FIELDS = [
	"name",
	"flow_definition",
	"flow_id",
	"flow_version",
	"mode",
	"status",
	"trigger_type",
	"user",
	"current_node_id",
	"hop_count",
	"last_error",
	"started_at",
	"completed_at",
	"creation",
]
AGENT_RUN_FIELDS = [
	"name",
	"flow_node_id",
	"agent",
	"run_kind",
	"status",
	"start_time",
	"end_time",
	"total_tokens",
	"total_cost",
	"error_message",
]
MAX_LIMIT = 200


def parse_payload(value: Any) -> Any:
	"""A payload as given; JSON text of an object or a list is parsed (form posts send text)."""
	if isinstance(value, str) and value.strip()[:1] in ("{", "["):
		try:
			return json.loads(value)
		except ValueError:
			frappe.throw(_("The payload is not valid JSON."), frappe.ValidationError)
	return value


def start(
	flow: Any, payload: Any = None, mode: str | None = None, conversation_mode: str | None = None
) -> dict:
	"""Start `flow` by hand as the session user: {"flow_run_id", "status"}."""
	mode = choice(mode, MODES, _("mode"))
	conversation_mode = choice(conversation_mode, CONVERSATION_MODES, _("conversation_mode"))
	run = start_flow_run(
		flow, parse_payload(payload), trigger_type="Manual", mode=mode, user=frappe.session.user
	)
	if conversation_mode:
		# the default of its agent.run nodes without a `conversation` setting of their own
		context = flow_context.loads(run.context_json)
		context["trigger"]["conversation_mode"] = conversation_mode
		run.db_set("context_json", flow_context.dumps(context), update_modified=False)
	return {"flow_run_id": run.name, "status": run.status}


def choice(value: str | None, allowed: tuple, label: str) -> str | None:
	"""`value` matched case-insensitively to one of `allowed`; None when empty."""
	if value in (None, ""):
		return None
	for option in allowed:
		if isinstance(value, str) and value.strip().lower() == option.lower():
			return option
	frappe.throw(_("{0} must be one of {1}, not {2}.").format(label, ", ".join(allowed), value))


def view(run: Any) -> dict:
	"""A run as its readers see it: status, position, context, what it waits for, errors, its Agent Runs."""
	context = flow_context.loads(run.context_json)
	waiting = flow_context.loads(run.waiting)
	waiting.pop("resume", None)
	return {
		"flow_run_id": run.name,
		"flow_id": run.flow_id,
		"flow_definition": run.flow_definition,
		"flow_version": run.flow_version,
		"mode": run.mode,
		"status": run.status,
		"trigger_type": run.trigger_type,
		"user": run.user,
		"current_node_id": run.current_node_id,
		"hop_count": cint(run.hop_count),
		"max_hops": cint(run.max_hops),
		"context": context,
		"result": context.get("result"),
		"waiting": waiting or None,
		"last_error": run.last_error,
		"errors": {
			node_id: entry["error"]
			for node_id, entry in (context.get("nodes") or {}).items()
			if isinstance(entry, dict) and entry.get("error")
		},
		"started_at": run.started_at,
		"completed_at": run.completed_at,
		"cancelled_by": run.cancelled_by,
		"cancelled_at": run.cancelled_at,
		"agent_runs": frappe.get_all(
			"Agent Run", filters={"flow_run": run.name}, fields=AGENT_RUN_FIELDS, order_by="creation asc"
		),
	}


def list_runs(flow_id: str | None = None, status: str | None = None, limit: int = 20) -> list:
	"""The newest runs the session user may read (of `flow_id`, in `status`)."""
	filters = {}
	if flow_id:
		filters["flow_definition"] = flow_id
	if status:
		filters["status"] = status
	return frappe.get_list(
		"Flow Run",
		fields=LIST_FIELDS,
		filters=filters,
		order_by="creation desc",
		limit_page_length=min(max(cint(limit), 1), MAX_LIMIT),
	)


def resume(run: Any, value: Any = None) -> dict:
	"""Give `run` (Waiting User) the input it waits for and let it go on."""
	if run.status != "Waiting User":
		frappe.throw(
			_("Flow Run {0} is {1}: it does not wait for input.").format(frappe.bold(run.name), run.status),
			FlowRunError,
		)
	resume_waiting_run(
		run,
		{"input": parse_payload(value), "by": frappe.session.user, "at": str(now_datetime())},
		"Waiting User",
	)
	return {"flow_run_id": run.name, "status": run.status}


def cancel(run: Any, reason: str | None = None) -> dict:
	"""Stop `run` for good: {"flow_run_id", "status"}."""
	run = cancel_flow_run(run, reason)
	return {"flow_run_id": run.name, "status": run.status}
