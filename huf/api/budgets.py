"""Budgets and the kill switch (docs/budgets.md): each readable budget's spend against its limit, and Pause All Runs."""

import frappe
from frappe import _

from huf.ai.runtime import budgets
from huf.huf.budget_access import sees_all


@frappe.whitelist()
def list_budgets() -> dict:
	"""The budgets the caller may read with their spend in the current period, and the kill switch."""
	frappe.has_permission("Huf Budget", "read", throw=True)
	fields = ["name", "scope", "agent", "user", "period", "limit_usd", "warning_percent", "enabled"]
	rows = frappe.get_list("Huf Budget", fields=fields, order_by="name asc", limit_page_length=500)
	listed = []
	for row in rows:
		standing = budgets.spend_of(row).as_dict()
		listed.append({**standing, "agent": row.agent, "user": row.user, "enabled": bool(row.enabled)})
	can_change = sees_all(frappe.session.user)
	return {"budgets": listed, "kill_switch": {**budgets.switch_state(), "can_change": can_change}}


@frappe.whitelist(methods=["POST"])
def set_pause_all_runs(paused: int) -> dict:
	"""Tick (1) or untick (0) Pause All Runs: only System Managers and Huf Managers (checked by role here:
	Frappe 15's `frappe.only_for` lets everyone through while tests run)."""
	if not sees_all(frappe.session.user):
		frappe.throw(
			_("Only System Managers and Huf Managers may pause or resume all runs."), frappe.PermissionError
		)
	return budgets.set_paused(bool(paused))
