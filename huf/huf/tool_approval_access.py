"""Who may decide a tool call's approval, and who may see Agent Tool Approval records. Wired in hooks.py.

An approver of an agent's tool calls holds the capability `tools.approve` (Approve tool calls: System
Managers and Huf Admins hold every capability, Huf Managers have it by default, a custom Huf Role may
be given it) and may read the agent (its DocPerms and Allowed Users / Allowed Roles). The run's own user
is an approver only when they qualify the same way. Nobody else sees or decides the requests, whose
raw arguments are stored on them.
"""

from typing import Any

import frappe

from huf.huf.capabilities import has_capability
from huf.huf.stored_doc import as_stored

APPROVE_CAPABILITY = "tools.approve"
MAX_NOTIFIED = 50


def is_tool_approver(agent: str | None, user: str | None = None) -> bool:
	"""Whether `user` (default: the session user) may decide tool approvals of `agent`."""
	user = user or frappe.session.user
	if not user or user == "Guest" or not agent:
		return False
	if user != "Administrator" and not has_capability(user, APPROVE_CAPABILITY):
		return False
	return bool(frappe.has_permission("Agent", "read", doc=agent, user=user))


def tool_approvers(agent: str) -> list[str]:
	"""Enabled users who may decide `agent`'s tool approvals (at most MAX_NOTIFIED, for notifications)."""
	huf_roles = frappe.get_all(
		"Huf Role Permission",
		filters={"parenttype": "Huf Role", "capability": APPROVE_CAPABILITY},
		pluck="parent",
	)
	roles = {"System Manager"}
	roles.update(frappe.get_all("Huf Role", filters={"name": ("in", huf_roles or [""])}, pluck="frappe_role"))
	holders = frappe.get_all(
		"Has Role", filters={"role": ("in", [r for r in roles if r]), "parenttype": "User"}, pluck="parent"
	)
	holders += frappe.get_all(
		"Huf User Role", filters={"enabled": 1, "huf_role": ("in", huf_roles or [""])}, pluck="user"
	)
	candidates = frappe.get_all(
		"User",
		filters={"name": ("in", list(set(holders)) or [""]), "enabled": 1, "user_type": "System User"},
		pluck="name",
		order_by="name asc",
	)
	return [user for user in candidates if is_tool_approver(agent, user)][:MAX_NOTIFIED]


def approval_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent Tool Approval: nothing for users without tools.approve."""
	user = user or frappe.session.user
	if user == "Administrator" or has_capability(user, APPROVE_CAPABILITY):
		return ""
	return "1=0"


def approval_has_permission(
	doc: Any, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Agent Tool Approval: approvers of the record's agent only."""
	return is_tool_approver(as_stored(doc, ptype, ("agent",)).get("agent"), user)
