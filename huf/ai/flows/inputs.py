"""The input requests of human.input nodes: the inbox of the people asked (their assignees, and Huf
Managers / System Managers who may answer any). Answers go through `huf.ai.flows.runs.resume`."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.flows import context as flow_context
from huf.huf.flow_access import WAITING_USER, is_pending_assignee, pending_assignees
from huf.huf.record_access import is_privileged

MAX_PENDING = 500  # waiting runs looked at for one inbox


def pending_for(user: str | None = None, limit: int | None = None) -> list:
	"""The input requests `user` (default: the session user) may answer, newest first, at most `limit`
	(default and at most MAX_PENDING): each with its form and the run's payload."""
	user = user or frappe.session.user
	limit = min(cint(limit) or MAX_PENDING, MAX_PENDING)
	if limit < 1:
		frappe.throw(_("limit must be a number above 0."), frappe.ValidationError)
	if not user or user == "Guest":
		return []
	manager = is_privileged(user)
	runs = frappe.get_all(
		"Flow Run",
		filters={"status": WAITING_USER},
		fields=["name", "status", "waiting", "flow_definition", "flow_id", "user", "context_json"],
		order_by="modified desc",
		limit=MAX_PENDING,
	)
	out = []
	for run in runs:
		if pending_assignees(run) is None or not (manager or is_pending_assignee(run, user)):
			continue
		waiting = flow_context.loads(run.waiting)
		out.append(
			{
				"flow_run_id": run.name,
				"flow_id": run.flow_id,
				"flow_name": frappe.db.get_value("Flow Definition", run.flow_definition, "flow_name"),
				"node_id": waiting.get("node_id"),
				"title": waiting.get("title"),
				"instructions": waiting.get("instructions"),
				"fields": waiting.get("fields") or [],
				"assignees": waiting.get("assignees"),
				"since": waiting.get("since"),
				"user": run.user,
				"payload": flow_context.loads(run.context_json).get("payload"),
			}
		)
		if len(out) >= limit:
			break
	return out
