"""Who may see and change an Agent Orchestration: the access of its parent run.

Reading needs read access to the parent run (its user, the owner of its conversation, Huf Managers,
System Managers); stopping or re-planning needs to be the parent run's user or privileged (Huf
Managers and System Managers: the chat.view_all capability).
"""

import frappe
from frappe import _

from huf.huf import run_access
from huf.huf.record_access import is_privileged

DENIED = "Agent Orchestration not found or access denied."


def load(orch_name: str, ptype: str = "read"):
	"""The Agent Orchestration `orch_name` if the caller may `ptype` ("read" or "write") it."""
	name = frappe.db.get_value("Agent Orchestration", orch_name) if isinstance(orch_name, str) else None
	if not name:
		frappe.throw(_(DENIED), frappe.PermissionError)
	orchestration = frappe.get_doc("Agent Orchestration", name)
	check(orchestration, ptype)
	return orchestration


def check(orchestration, ptype: str = "read") -> None:
	parent = orchestration.parent_run
	if not parent or not frappe.db.exists("Agent Run", parent):
		if not is_privileged():
			frappe.throw(_(DENIED), frappe.PermissionError)
		return
	run = frappe.get_doc("Agent Run", parent)
	try:
		run_access.check_can_read_run(run)
	except frappe.PermissionError:
		frappe.throw(_(DENIED), frappe.PermissionError)
	if ptype != "read" and run.user != frappe.session.user and not is_privileged():
		frappe.throw(
			_("Only the user who started orchestration {0}, or a Huf Manager, may change it.").format(
				frappe.bold(orchestration.name)
			),
			frappe.PermissionError,
		)
