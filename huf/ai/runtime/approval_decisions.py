"""Decisions on tool approval requests: approve once / for the conversation / always, deny; expiry; grants.

A decision is stored on the Agent Tool Approval (status, scope, who, when, comment) under a row lock,
so of two decisions at once exactly one wins; the run waiting for it goes back to Queued and its
conversation's drainer resumes it (`approval_gate` finds the decision for the very call). A grant
(scope Conversation or Always) also decides the other pending requests it covers.
`expire_tool_approvals` (scheduler, every minute) decides "Expired" by "timeout" past `expires_at`.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import get_datetime, now_datetime

from huf.ai import live_events
from huf.ai.runtime import queue, run_state
from huf.ai.runtime.approval_gate import DOCTYPE, PARKED_KEY, WAITING
from huf.huf.tool_approval_access import APPROVE_CAPABILITY, is_tool_approver, tool_approvers

# decision -> (status, scope)
DECISIONS = {
	"approve": ("Approved", "Once"),
	"approve_once": ("Approved", "Once"),
	"approve_conversation": ("Approved", "Conversation"),
	"approve_always": ("Approved", "Always"),
	"deny": ("Denied", "Once"),
}
TIMEOUT = "timeout"
MAX_COMMENT = 2000
MAX_LISTED = 500
FIELDS = [
	"name",
	"status",
	"scope",
	"agent",
	"tool_name",
	"tool_function",
	"agent_run",
	"conversation",
	"run_user",
	"arguments_hash",
	"arguments",
	"requested_at",
	"expires_at",
	"decided_by",
	"decided_at",
	"comment",
]


def decide(approval_id: str, decision: str, comment: str | None = None) -> dict:
	"""Decide a pending request as the session user, who must be an approver of its agent."""
	decision = str(decision or "").strip().lower()
	if decision not in DECISIONS:
		frappe.throw(
			_("The decision must be one of {0}, not {1}.").format(", ".join(DECISIONS), decision),
			frappe.ValidationError,
		)
	if not approval_id or not frappe.db.exists(DOCTYPE, approval_id):
		frappe.throw(_("Tool approval {0} not found.").format(approval_id), frappe.DoesNotExistError)
	row = lock(approval_id)
	if not is_tool_approver(row.agent):
		frappe.throw(
			_("You may not decide tool calls of agent {0}: that needs the capability {1}.").format(
				frappe.bold(row.agent), APPROVE_CAPABILITY
			),
			frappe.PermissionError,
		)
	if row.status != "Pending":
		frappe.throw(
			_("This tool call was already decided ({0} by {1}).").format(
				_(row.status), row.decided_by or "-"
			),
			frappe.ValidationError,
		)
	if row.expires_at and get_datetime(row.expires_at) <= now_datetime():
		record(row, "Expired", "Once", TIMEOUT, None)
		frappe.db.commit()
		frappe.throw(
			_("This request expired at {0}; the run was told.").format(row.expires_at), frappe.ValidationError
		)
	status, scope = DECISIONS[decision]
	record(row, status, scope, frappe.session.user, comment)
	if status == "Approved" and scope != "Once":
		_decide_covered(row, scope, comment)
	frappe.db.commit()
	return {"approval_id": row.name, "status": status, "scope": scope, "agent_run_id": row.agent_run}


def lock(approval_id: str) -> Any:
	"""The request, its row held until the transaction ends: of two decisions at once, one wins."""
	return frappe.db.get_value(DOCTYPE, approval_id, FIELDS, as_dict=True, for_update=True)


def record(row: Any, status: str, scope: str, by: str, comment: str | None) -> None:
	"""Store the decision and resume the run waiting for it (if it still waits)."""
	frappe.db.set_value(
		DOCTYPE,
		row.name,
		{
			"status": status,
			"scope": scope,
			"decided_by": by,
			"decided_at": now_datetime(),
			"comment": (comment or "")[:MAX_COMMENT] or None,
		},
	)
	row.status = status
	publish_decided(row)
	if row.agent_run:
		resume(row.agent_run, row.name)


def publish_decided(row: Any) -> None:
	"""Tell the request's approvers (their inboxes) that it left Pending, once the decision commits."""
	try:
		approvers = tool_approvers(row.agent)
	except Exception:
		frappe.logger("huf").warning("could not list the approvers of %s", row.name, exc_info=True)
		return
	live_events.approval_update(row, approvers)


def resume(run_name: str, request: str) -> bool:
	"""Queue again the run parked on `request`; its conversation's drainer goes on with it."""
	run = frappe.db.get_value(
		"Agent Run",
		run_name,
		["name", "status", "conversation", "runtime_context"],
		as_dict=True,
		for_update=True,
	)
	if not run or run.status != WAITING:
		return False
	context = run_state.runtime_context(run)
	if (context.get(PARKED_KEY) or {}).get("request") != request:
		return False  # parked on another call's request
	context["inline"] = False
	frappe.db.set_value(
		"Agent Run", run_name, {"status": "Queued", "runtime_context": json.dumps(context, default=str)}
	)
	frappe.db.commit()
	run_state.publish_status(run_name, "Queued")
	queue.kick_drainer(run.conversation)
	return True


def _decide_covered(grant: Any, scope: str, comment: str | None) -> None:
	"""A grant also approves the other pending requests of its tool and agent (and conversation)."""
	filters = {
		"status": "Pending",
		"agent": grant.agent,
		"tool_name": grant.tool_name,
		"name": ("!=", grant.name),
	}
	if scope == "Conversation":
		filters["conversation"] = grant.conversation
	for name in frappe.get_all(DOCTYPE, filters=filters, pluck="name", limit=MAX_LISTED):
		row = lock(name)
		if row.status == "Pending":
			note = _("Covered by the grant {0}.").format(grant.name)
			record(row, "Approved", "Once", frappe.session.user, f"{note} {comment or ''}".strip())


def pending_for(user: str | None = None) -> list[dict]:
	"""The pending requests `user` (default: the session user) may decide, newest first, with their arguments."""
	user = user or frappe.session.user
	rows = frappe.get_all(
		DOCTYPE, filters={"status": "Pending"}, fields=FIELDS, order_by="creation desc", limit=MAX_LISTED
	)
	out = []
	for row in rows:
		if not is_tool_approver(row.agent, user):
			continue
		out.append(_describe(row))
	return out


def grants_for(agent: str | None = None, user: str | None = None) -> list[dict]:
	"""The standing grants (approved for a conversation or always) of the agents `user` may decide."""
	user = user or frappe.session.user
	filters: dict = {"status": "Approved", "scope": ("in", ["Conversation", "Always"])}
	if agent:
		filters["agent"] = agent
	rows = frappe.get_all(
		DOCTYPE, filters=filters, fields=FIELDS, order_by="decided_at desc", limit=MAX_LISTED
	)
	return [_describe(row, arguments=False) for row in rows if is_tool_approver(row.agent, user)]


def revoke(approval_id: str) -> dict:
	"""End a standing grant: later calls of its tool ask again."""
	if not approval_id or not frappe.db.exists(DOCTYPE, approval_id):
		frappe.throw(_("Tool approval {0} not found.").format(approval_id), frappe.DoesNotExistError)
	row = lock(approval_id)
	if not is_tool_approver(row.agent):
		frappe.throw(
			_("You may not change the tool approvals of agent {0}.").format(row.agent), frappe.PermissionError
		)
	if row.status != "Approved" or row.scope == "Once":
		frappe.throw(
			_("Only an approval for a conversation or for always can be revoked."), frappe.ValidationError
		)
	frappe.db.set_value(DOCTYPE, row.name, "status", "Revoked")
	frappe.db.commit()
	return {"approval_id": row.name, "status": "Revoked"}


def expire_tool_approvals() -> int:
	"""Scheduler job: decide "Expired" by "timeout" for every pending request past its deadline. Returns how many."""
	count = 0
	for name in frappe.get_all(
		DOCTYPE,
		filters={"status": "Pending", "expires_at": ("<=", now_datetime())},
		pluck="name",
		limit=MAX_LISTED * 10,
	):
		row = lock(name)
		if row.status != "Pending":
			frappe.db.rollback()
			continue
		record(row, "Expired", "Once", TIMEOUT, None)
		frappe.db.commit()
		count += 1
	return count


def _describe(row: Any, arguments: bool = True) -> dict:
	out = {
		"approval_id": row.name,
		"status": row.status,
		"scope": row.scope,
		"agent": row.agent,
		"tool_name": row.tool_name,
		"agent_run_id": row.agent_run,
		"conversation_id": row.conversation,
		"user": row.run_user,
		"arguments_hash": row.arguments_hash,
		"requested_at": str(row.requested_at or "") or None,
		"expires_at": str(row.expires_at or "") or None,
		"decided_by": row.decided_by,
		"decided_at": str(row.decided_at or "") or None,
	}
	if arguments:
		try:
			out["arguments"] = json.loads(row.arguments or "{}")
		except ValueError:
			out["arguments"] = row.arguments
		out["prompt"] = (
			(frappe.db.get_value("Agent Run", row.agent_run, "prompt") or "")[:1000]
			if row.agent_run
			else None
		)
	return out
