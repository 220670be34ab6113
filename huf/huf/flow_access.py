"""Who may see a Flow Run, and who may decide its pending approval. Wired in hooks.py.

- Huf Managers and System Managers see every run (their DocPerms still apply).
- Anyone else sees the runs that act as them (Flow Run `user`) and, while a run waits for their
  approval, the runs they may approve: the approvers a human.approval node recorded in the run's
  `waiting` (`{"approvers": {"users": [...], "roles": [...]}}`), a listed user or a holder of a listed role.
- Lists (permission_query_conditions) show a user their own runs; the runs waiting for their
  approval are listed by `huf.api.flows.list_pending_approvals`.
"""

import json
from typing import Any

import frappe

from huf.huf.record_access import is_privileged
from huf.huf.stored_doc import READ_TYPES, as_stored

WAITING_APPROVAL = "Waiting Approval"


def pending_approvers(run: Any) -> dict:
	"""{"users": [...], "roles": [...]} who may decide the run's approval now (empty unless it waits for one)."""
	if run.get("status") != WAITING_APPROVAL:
		return {"users": [], "roles": []}
	waiting = run.get("waiting")
	if isinstance(waiting, str):
		try:
			waiting = json.loads(waiting or "{}")
		except ValueError:
			waiting = {}
	approvers = waiting.get("approvers") if isinstance(waiting, dict) else None
	approvers = approvers if isinstance(approvers, dict) else {}
	return {
		key: [value for value in approvers.get(key) or [] if isinstance(value, str) and value]
		for key in ("users", "roles")
	}


def is_pending_approver(run: Any, user: str | None = None) -> bool:
	"""Whether `user` (default: the session user) may approve or reject `run` now."""
	user = user or frappe.session.user
	if not user or user == "Guest":
		return False
	approvers = pending_approvers(run)
	if user in approvers["users"]:
		return True
	return bool(approvers["roles"]) and not set(approvers["roles"]).isdisjoint(frappe.get_roles(user))


def flow_run_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Flow Run: the runs that act as the user."""
	user = user or frappe.session.user
	if is_privileged(user):
		return ""
	return f"`tabFlow Run`.`user` = {frappe.db.escape(user)}"


def flow_run_has_permission(
	doc: Any, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Flow Run: its user; its pending approvers may read it."""
	user = user or frappe.session.user
	if is_privileged(user):
		return True
	doc = as_stored(doc, ptype, ("user", "status", "waiting"))
	if doc.get("user") == user:
		return True
	return ptype in READ_TYPES and is_pending_approver(doc, user)
