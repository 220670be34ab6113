"""Answers to client-side tool calls: the browser's result (or error) for the call a run waits on.

`answer` stores what the browser of the run's user posted (only that user, only while that very call
is pending, once) on the run's pending call (`huf.ai.runtime.client_calls.KEY`) and queues the run
again (`approval_decisions.resume`): its conversation's drainer resumes it and the loop takes the
answer as the tool's output. `expire_client_calls` (scheduler, every minute) answers each call past
its deadline with a timeout error.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import get_datetime, now_datetime

from huf.ai.runtime import approval_gate, run_state
from huf.ai.runtime.approval_decisions import resume
from huf.ai.runtime.client_calls import KEY, REQUEST_PREFIX, TIMEOUT, pending_of
from huf.ai.runtime.tools import as_text

MAX_RESULT_CHARS = 100_000
MAX_ERROR_CHARS = 2_000


def answer(agent_run_id: str, call_id: str, result: Any = None, error: str | None = None) -> dict:
	"""Store the browser's answer to a pending call as the session user (the run's user) and resume the run."""
	user = frappe.session.user
	if user == "Guest":
		frappe.throw(_("Please sign in to answer a tool call."), frappe.PermissionError)
	if not agent_run_id or not call_id:
		frappe.throw(_("agent_run_id and call_id are required."), frappe.ValidationError)
	run = frappe.db.get_value(
		"Agent Run",
		agent_run_id,
		["name", "status", "user", "runtime_context"],
		as_dict=True,
		for_update=True,
	)
	context = run_state.runtime_context(run) if run else {}
	pending = context.get(KEY) if isinstance(context.get(KEY), dict) else None
	owner = (pending or {}).get("user") or (run or {}).get("user")
	if not run or owner != user:
		# the same answer for a run that is not the caller's as for no run: nothing to learn by probing
		frappe.throw(
			_("You have no pending tool call {0} in this run.").format(call_id), frappe.PermissionError
		)
	if (
		pending is None
		or run.status != approval_gate.WAITING
		or pending.get("call_id") != call_id
		or "answer" in pending
	):
		frappe.throw(
			_("The tool call {0} is not waiting for an answer.").format(call_id), frappe.ValidationError
		)
	if get_datetime(pending["expires_at"]) <= now_datetime():
		_store(run.name, context, {"error": TIMEOUT})
		frappe.db.commit()
		frappe.throw(
			_("The tool call {0} expired at {1}; the run was told.").format(call_id, pending["expires_at"]),
			frappe.ValidationError,
		)
	if error:
		stored = {"error": str(error)[:MAX_ERROR_CHARS]}
	else:
		stored = {"result": _fit(result)}
	_store(run.name, context, stored)
	frappe.db.commit()
	return {"agent_run_id": run.name, "call_id": call_id, "status": "Answered"}


def _fit(result: Any) -> Any:
	"""The browser's result, parsed when it is JSON text, cut to MAX_RESULT_CHARS when it is long."""
	if isinstance(result, str):
		try:
			result = json.loads(result)
		except ValueError:
			pass
	text = as_text(result)
	return result if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + "…"


def _store(run_name: str, context: dict, stored: dict) -> None:
	"""Record the answer on the pending call and queue the run again (its conversation's drainer resumes it)."""
	context[KEY] = {**context[KEY], "answer": stored, "answered_at": str(now_datetime())}
	frappe.db.set_value("Agent Run", run_name, "runtime_context", json.dumps(context, default=str))
	resume(run_name, REQUEST_PREFIX + context[KEY]["call_id"])


def expire_client_calls() -> int:
	"""Scheduler job: answer every pending call past its deadline with a timeout error. Returns how many."""
	count = 0
	for name in frappe.get_all("Agent Run", filters={"status": approval_gate.WAITING}, pluck="name"):
		pending = pending_of(name)
		if pending is None or get_datetime(pending.get("expires_at")) > now_datetime():
			continue
		run = frappe.db.get_value(
			"Agent Run", name, ["name", "status", "runtime_context"], as_dict=True, for_update=True
		)
		context = run_state.runtime_context(run)
		current = context.get(KEY)
		if run.status != approval_gate.WAITING or not isinstance(current, dict) or "answer" in current:
			frappe.db.rollback()
			continue
		_store(name, context, {"error": TIMEOUT})
		frappe.db.commit()
		count += 1
	return count
