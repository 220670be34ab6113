"""Who may grant which Frappe role through Huf Roles (the escalation guard)."""

import frappe
from frappe import _

# Roles no Huf Role may ever map to.
FORBIDDEN_ROLES = frozenset(("Administrator", "Guest", "All"))


def is_system_manager(user: str | None = None) -> bool:
	user = user or frappe.session.user
	return user == "Administrator" or "System Manager" in frappe.get_roles(user)


def check_can_grant(frappe_role: str | None, to_user: str | None = None) -> None:
	"""Throw unless the session user may give `frappe_role` (to `to_user`, when known)."""
	if not frappe_role:
		return
	if frappe_role in FORBIDDEN_ROLES:
		frappe.throw(
			_("A Huf Role cannot grant the {0} role.").format(frappe.bold(frappe_role)),
			frappe.PermissionError,
		)
	if is_system_manager():
		return
	if frappe_role == "System Manager":
		frappe.throw(
			_("Only a System Manager can grant a role that maps to System Manager."), frappe.PermissionError
		)
	if to_user and to_user == frappe.session.user:
		frappe.throw(_("You cannot change your own Huf role; ask a System Manager."), frappe.PermissionError)
	if frappe_role not in frappe.get_roles():
		frappe.throw(
			_("You cannot grant the {0} role because you do not have it yourself.").format(
				frappe.bold(frappe_role)
			),
			frappe.PermissionError,
		)
