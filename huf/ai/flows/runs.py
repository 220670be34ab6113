"""Flow runs for people and agents: start one by hand, read one, list runs, give a waiting run its input.

The caller (huf.ai.flow_api) has checked access (huf.ai.flows.access); runs started here act as the
caller (trigger type Manual).
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt, getdate, now_datetime

from huf.ai.flows import access
from huf.ai.flows import context as flow_context
from huf.ai.flows.engine import ENDED, FlowRunError, cancel_flow_run, resume_waiting_run, start_flow_run
from huf.ai.flows.nodes.user_input import clean_answer

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
		"can_cancel": run.status not in ENDED and access.can_cancel(run),
		"agent_runs": frappe.get_all(
			"Agent Run", filters={"flow_run": run.name}, fields=AGENT_RUN_FIELDS, order_by="creation asc"
		),
	}


def list_runs(
	flow_id: str | None = None,
	status: str | None = None,
	limit: int = 20,
	user: str | None = None,
	from_date: str | None = None,
	to_date: str | None = None,
	start: int = 0,
) -> list:
	"""The newest runs the session user may read (of `flow_id`, in `status`, acting as `user`, started
	between `from_date` and `to_date`, both included), from row `start`; each with its flow's name and
	its Agent Runs' cost and tokens."""
	filters: list = []
	if flow_id:
		filters.append(["flow_definition", "=", flow_id])
	if status:
		filters.append(["status", "=", status])
	if user:
		filters.append(["user", "=", user])
	first, last = getdate(from_date) if from_date else None, getdate(to_date) if to_date else None
	if first:
		filters.append(["creation", ">=", f"{first} 00:00:00"])
	if last:
		filters.append(["creation", "<=", f"{last} 23:59:59.999999"])
	rows = frappe.get_list(
		"Flow Run",
		fields=LIST_FIELDS,
		filters=filters,
		order_by="creation desc",
		limit_start=max(cint(start), 0),
		limit_page_length=min(max(cint(limit), 1), MAX_LIMIT),
	)
	add_totals(rows)
	return rows


def add_totals(rows: list) -> None:
	"""Each row's flow name, and the cost and tokens of its Agent Runs (two queries for the page)."""
	names = [row.name for row in rows]
	totals = {name: {"total_cost": 0.0, "total_tokens": 0} for name in names}
	if names:
		for agent_run in frappe.get_all(
			"Agent Run",
			filters={"flow_run": ("in", names)},
			fields=["flow_run", "total_cost", "total_tokens"],
		):
			totals[agent_run.flow_run]["total_cost"] += flt(agent_run.total_cost)
			totals[agent_run.flow_run]["total_tokens"] += cint(agent_run.total_tokens)
	flows = {row.flow_definition for row in rows}
	flow_names = (
		dict(
			frappe.get_all(
				"Flow Definition",
				filters={"name": ("in", list(flows))},
				fields=["name", "flow_name"],
				as_list=True,
			)
		)
		if flows
		else {}
	)
	for row in rows:
		row.update(totals[row.name])
		row["flow_name"] = flow_names.get(row.flow_definition)


def resume(run: Any, value: Any = None) -> dict:
	"""Give `run` (Waiting User) the input it waits for and let it go on. The run's row is held until
	the answer is committed (of two answers at once, one wins; the other finds the run Running). When
	a human.input node waits, the answer is checked against its form first."""
	current = frappe.db.get_value("Flow Run", run.name, ["status", "waiting"], as_dict=True, for_update=True)
	run.status, run.waiting = current.status, current.waiting
	if run.status != "Waiting User":
		frappe.throw(
			_("Flow Run {0} is {1}: it does not wait for input.").format(frappe.bold(run.name), run.status),
			FlowRunError,
		)
	value = parse_payload(value)
	fields = flow_context.loads(run.waiting).get("fields")
	if isinstance(fields, list):
		value = clean_answer(fields, value)
	resume_waiting_run(
		run, {"input": value, "by": frappe.session.user, "at": str(now_datetime())}, "Waiting User"
	)
	return {"flow_run_id": run.name, "status": run.status}


def cancel(run: Any, reason: str | None = None) -> dict:
	"""Stop `run` for good: {"flow_run_id", "status"}."""
	run = cancel_flow_run(run, reason)
	return {"flow_run_id": run.name, "status": run.status}
