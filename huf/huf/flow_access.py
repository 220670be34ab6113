"""Who may see a Flow Run, and who may decide its pending approval. Wired in hooks.py.

- Huf Managers and System Managers see every run (their DocPerms still apply).
- Anyone else sees the runs that act as them (Flow Run `user`) and, while a run waits for their
  approval, the runs they may approve: the approvers a human.approval node recorded in the run's
  `waiting` (`{"approvers": {"users": [...], "roles": [...]}}`), a listed user or a holder of a listed role;
  and, while a run waits for input (Waiting User), the assignees a human.input node recorded there
  (`{"assignees": {"users": [...], "roles": [...]}}`).
- Lists (permission_query_conditions) show a user their own runs; the runs waiting for their
  approval are listed by `huf.api.flows.list_pending_approvals`.
"""

import json
from typing import Any

import frappe

from huf.huf.record_access import is_privileged
from huf.huf.stored_doc import READ_TYPES, as_stored

WAITING_APPROVAL = "Waiting Approval"
WAITING_USER = "Waiting User"


def waiting_people(run: Any, status: str, key: str) -> dict | None:
	"""The {"users": [...], "roles": [...]} stored under `key` of the run's `waiting` while it is in
	`status`; None when it is not, or records none."""
	if run.get("status") != status:
		return None
	waiting = run.get("waiting")
	if isinstance(waiting, str):
		try:
			waiting = json.loads(waiting or "{}")
		except ValueError:
			waiting = {}
	people = waiting.get(key) if isinstance(waiting, dict) else None
	if not isinstance(people, dict):
		return None
	return {
		kind: [value for value in people.get(kind) or [] if isinstance(value, str) and value]
		for kind in ("users", "roles")
	}


def pending_approvers(run: Any) -> dict:
	"""{"users": [...], "roles": [...]} who may decide the run's approval now (empty unless it waits for one)."""
	return waiting_people(run, WAITING_APPROVAL, "approvers") or {"users": [], "roles": []}


def pending_assignees(run: Any) -> dict | None:
	"""{"users": [...], "roles": [...]} who may answer the input the run waits for; None when it waits
	for no input or its request names nobody."""
	return waiting_people(run, WAITING_USER, "assignees")


def is_listed(people: dict | None, user: str) -> bool:
	"""Whether `user` is one of `people`'s users or holds one of its roles (never a guest)."""
	if not people or not user or user == "Guest":
		return False
	if user in people["users"]:
		return True
	return bool(people["roles"]) and not set(people["roles"]).isdisjoint(frappe.get_roles(user))


def is_pending_approver(run: Any, user: str | None = None) -> bool:
	"""Whether `user` (default: the session user) may approve or reject `run` now."""
	return is_listed(pending_approvers(run), user or frappe.session.user)


def is_pending_assignee(run: Any, user: str | None = None) -> bool:
	"""Whether `user` (default: the session user) is an assignee of the input `run` waits for now."""
	return is_listed(pending_assignees(run), user or frappe.session.user)


def flow_run_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Flow Run: the runs that act as the user."""
	user = user or frappe.session.user
	if is_privileged(user):
		return ""
	return f"`tabFlow Run`.`user` = {frappe.db.escape(user)}"


def flow_run_has_permission(
	doc: Any, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Flow Run: its user; its pending approvers and input assignees may read it."""
	user = user or frappe.session.user
	if is_privileged(user):
		return True
	doc = as_stored(doc, ptype, ("user", "status", "waiting"))
	if doc.get("user") == user:
		return True
	return ptype in READ_TYPES and (is_pending_approver(doc, user) or is_pending_assignee(doc, user))
