"""Cancelling an Agent Run that is Queued, Started or Waiting Approval, for good.

The Cancelled status, who cancelled and when are committed at once (the database is the truth), then
`locks.mark_cancelled` signals the process running it. A Queued run is never started (the drainer
lists only Queued runs, and `execute_run` reads the status with a row lock); a Started run stops at
its next step boundary, before its next model or tool call, keeping the usage and cost so far; a run
Waiting Approval has its pending requests expired, so no decision resumes it. Recovery only touches
Started runs, so nothing restarts a cancelled one.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import now, strip_html

from huf.ai.conversation.usage import record_usage
from huf.ai.runtime import approval_decisions, locks, queue, run_state
from huf.ai.runtime.approval_gate import DOCTYPE, WAITING
from huf.huf.run_access import check_can_cancel_run

IN_FLIGHT = ("Queued", "Started", WAITING)
MAX_REASON = 500
FIELDS = [
	"name",
	"status",
	"user",
	"agent",
	"conversation",
	"sequence",
	"input_tokens",
	"output_tokens",
	"total_cost",
	"cancelled_by",
	"cancelled_at",
	"error_message",
]


def cancel_run(run_name: str, reason: str | None = None) -> dict:
	"""Cancel the run as the session user (its stored user, or chat.view_all); idempotent."""
	owner = frappe.db.get_value("Agent Run", run_name, ["user"], as_dict=True) if run_name else None
	check_can_cancel_run(owner or {})  # a missing run fails like a foreign one
	pending = frappe.get_all(DOCTYPE, filters={"agent_run": run_name, "status": "Pending"}, pluck="name")
	requests = [approval_decisions.lock(name) for name in pending]  # a decision's lock order: request, run
	run = frappe.db.get_value("Agent Run", run_name, FIELDS, as_dict=True, for_update=True)
	check_can_cancel_run(run or {})  # deleted meanwhile
	if run.status == "Cancelled":
		frappe.db.rollback()
		return _answer(run)
	if run.status not in IN_FLIGHT:
		frappe.db.rollback()
		frappe.throw(
			_("Agent Run {0} is already {1}.").format(run.name, _(run.status)), frappe.ValidationError
		)
	run.update(
		cancelled_by=frappe.session.user, cancelled_at=now(), error_message=_message(reason), end_time=now()
	)
	values = {key: run[key] for key in ("cancelled_by", "cancelled_at", "error_message", "end_time")}
	frappe.db.set_value("Agent Run", run.name, {"status": "Cancelled", **values})
	if run.status == WAITING:
		_close_waiting(run, requests)
	frappe.db.commit()
	locks.mark_cancelled(run.name)  # a Started run stops at its next step; an inline caller stops waiting
	run_state.publish_status(run.name, "Cancelled", run=run, error_message=run.error_message)
	if run.status != "Started" and not locks.is_locked(run.conversation):
		queue.wake_after_release(run.conversation)  # the runs queued behind it go on
	run.status = "Cancelled"
	return _answer(run)


def _message(reason: str | None) -> str:
	message = _("The run was cancelled by {0}.").format(frappe.session.user)
	reason = strip_html(reason or "").strip()[:MAX_REASON]
	return f"{message} {_('Reason: {0}').format(reason)}" if reason else message


def _close_waiting(run: Any, requests: list) -> None:
	"""Expire the run's pending tool approvals and add its usage so far to the conversation."""
	for request in requests:
		if request and request.status == "Pending":
			approval_decisions.record(request, "Expired", "Once", frappe.session.user, run.error_message)
	record_usage(run.conversation, run.input_tokens, run.output_tokens, run.total_cost)
	from huf.ai.runtime.loop import add_error_message

	add_error_message(run.agent, run.conversation, run.name, run.error_message)


def _answer(run: Any) -> dict:
	return {
		"agent_run_id": run.name,
		"status": run.status,
		"cancelled_by": run.cancelled_by,
		"cancelled_at": str(run.cancelled_at) if run.cancelled_at else None,
		"error_message": run.error_message,
	}
