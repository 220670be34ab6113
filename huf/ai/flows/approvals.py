"""Decisions on human.approval nodes: approve or reject (by an approver), the approvals inbox, timeouts.

A decision is stored on the waiting run (`engine.resume_waiting_run`) as {"decision", "by",
"comment", "at"}; the run is enqueued again and the approval node routes by it
(huf.ai.flows.nodes.approval). `expire_flow_approvals` (scheduler) decides "rejected" by "timeout"
for approvals past their `timeout_minutes`.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, get_datetime, now_datetime

from huf.ai.flows import access
from huf.ai.flows import context as flow_context
from huf.ai.flows.engine import FlowRunError, resume_waiting_run
from huf.ai.flows.nodes.approval import DECISIONS, REJECTED, TIMEOUT
from huf.huf.flow_access import WAITING_APPROVAL, is_pending_approver

MAX_PENDING = 500  # waiting runs looked at for one inbox
MAX_COMMENT = 2000


def decide(flow_run_id: str, decision: str, comment: str | None = None) -> dict:
	"""Approve or reject `flow_run_id` as the session user, who must be one of its approvers."""
	decision = str(decision or "").strip().lower()
	if decision not in DECISIONS:
		frappe.throw(_("The decision must be approved or rejected, not {0}.").format(decision))
	run = access.load_run(flow_run_id)
	lock(run)
	access.check_approver(run)
	record(run, decision, frappe.session.user, comment)
	return {"flow_run_id": run.name, "status": run.status, "decision": decision}


def lock(run: Any) -> None:
	"""Hold the run's row until the decision is committed: of two decisions at once, one wins."""
	current = frappe.db.get_value("Flow Run", run.name, ["status", "waiting"], as_dict=True, for_update=True)
	run.status, run.waiting = current.status, current.waiting


def record(run: Any, decision: str, by: str, comment: str | None) -> None:
	resume = {
		"decision": decision,
		"by": by,
		"comment": (comment or "")[:MAX_COMMENT] or None,
		"at": str(now_datetime()),
	}
	resume_waiting_run(run, resume, WAITING_APPROVAL)


def pending_for(user: str | None = None, limit: int | None = None) -> list:
	"""The runs waiting for `user`'s approval (default: the session user), newest first, at most `limit`
	of them (default and at most MAX_PENDING), with what approvers need."""
	user = user or frappe.session.user
	limit = min(cint(limit) or MAX_PENDING, MAX_PENDING)
	if limit < 1:
		frappe.throw(_("limit must be a number above 0."), frappe.ValidationError)
	runs = frappe.get_all(
		"Flow Run",
		filters={"status": WAITING_APPROVAL},
		fields=[
			"name",
			"status",
			"waiting",
			"flow_definition",
			"flow_id",
			"user",
			"context_json",
			"modified",
		],
		order_by="modified desc",
		limit=MAX_PENDING,
	)
	out = []
	for run in runs:
		if not is_pending_approver(run, user):
			continue
		waiting = flow_context.loads(run.waiting)
		context = flow_context.loads(run.context_json)
		out.append(
			{
				"flow_run_id": run.name,
				"flow_id": run.flow_id,
				"flow_name": frappe.db.get_value("Flow Definition", run.flow_definition, "flow_name"),
				"node_id": waiting.get("node_id"),
				"message": waiting.get("message"),
				"since": waiting.get("since"),
				"timeout_at": waiting.get("timeout_at"),
				"user": run.user,
				"payload": context.get("payload"),
				"context": context,
			}
		)
		if len(out) >= limit:
			break
	return out


def expire_flow_approvals() -> int:
	"""Scheduler job: decide "rejected" by "timeout" for every approval past its deadline. Returns how many."""
	now = now_datetime()
	count = 0
	for run in frappe.get_all(
		"Flow Run", filters={"status": WAITING_APPROVAL}, fields=["name", "waiting"], limit=MAX_PENDING * 10
	):
		deadline = flow_context.loads(run.waiting).get("timeout_at")
		if not deadline or get_datetime(deadline) > now:
			continue
		doc = frappe.get_doc("Flow Run", run.name)
		lock(doc)
		if doc.status != WAITING_APPROVAL:
			frappe.db.rollback()
			continue
		try:
			record(doc, REJECTED, TIMEOUT, _("No decision before {0}.").format(deadline))
		except FlowRunError:
			frappe.db.rollback()
			continue
		count += 1
	return count
