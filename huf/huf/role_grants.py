"""Who may grant which Frappe role, Huf Role or capability (the escalation guard).

Nobody grants a capability or role they do not hold; only Huf Admins (System Managers) touch Huf Admin
or System Managers; nobody changes their own Huf role (Administrator aside)."""

import frappe
from frappe import _

from huf.huf.capabilities import CAPABILITIES, capabilities_of

# Roles no Huf Role may ever map to.
FORBIDDEN_ROLES = frozenset(("Administrator", "Guest", "All"))


def is_system_manager(user: str | None = None) -> bool:
	user = user or frappe.session.user
	return user == "Administrator" or "System Manager" in frappe.get_roles(user)


def check_system_manager() -> None:
	"""Refuse the session user unless Administrator or a System Manager (checked by role here: Frappe 15's
	`frappe.only_for` lets everyone through while tests run)."""
	if not is_system_manager():
		frappe.throw(_("Only System Managers may do this."), frappe.PermissionError)


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


ADMIN_ROLE = "Huf Admin"


def role_capabilities(huf_role: str) -> list[str]:
	"""The capabilities of a Huf Role, in catalogue order."""
	granted = set(
		frappe.get_all(
			"Huf Role Permission", filters={"parenttype": "Huf Role", "parent": huf_role}, pluck="capability"
		)
	)
	return [c for c in CAPABILITIES if c in granted]


def check_can_grant_capabilities(capabilities: list[str]) -> None:
	"""Throw, naming the first one, unless the session user holds every capability in `capabilities`."""
	held = set(capabilities_of())
	for capability in capabilities:
		if capability not in held:
			frappe.throw(
				_("You cannot grant the capability {0} ({1}) because you do not hold it yourself.").format(
					frappe.bold(capability), _(CAPABILITIES.get(capability, capability))
				),
				frappe.PermissionError,
			)


def is_admin_role(huf_role: str | None) -> bool:
	"""Huf Admin, or any Huf Role that grants System Manager."""
	if not huf_role:
		return False
	return (
		huf_role == ADMIN_ROLE or frappe.db.get_value("Huf Role", huf_role, "frappe_role") == "System Manager"
	)


def check_can_touch_role(huf_role: str | None) -> None:
	"""Only Huf Admins / System Managers define or change Huf Admin (and roles granting System Manager)."""
	if is_admin_role(huf_role) and not is_system_manager():
		frappe.throw(
			_("Only a Huf Admin or System Manager can change the {0} role.").format(frappe.bold(huf_role)),
			frappe.PermissionError,
		)


def check_can_touch_user(user: str) -> None:
	"""Throw for the session user themselves, and for Huf Admins / System Managers unless the caller is one."""
	if user == frappe.session.user and user != "Administrator":
		frappe.throw(
			_("You cannot change your own Huf role or account; ask another admin."), frappe.PermissionError
		)
	if user == "Administrator" or (is_system_manager(user) and not is_system_manager()):
		frappe.throw(
			_("Only a Huf Admin or System Manager can change {0}.").format(frappe.bold(user)),
			frappe.PermissionError,
		)
	if not is_system_manager():
		held = set(capabilities_of())
		above = [c for c in capabilities_of(user) if c not in held]
		if above:
			frappe.throw(
				_("You cannot change {0}: they hold the capability {1}, which you do not.").format(
					frappe.bold(user), frappe.bold(above[0])
				),
				frappe.PermissionError,
			)


def check_can_assign(huf_role: str, user: str) -> None:
	"""Throw unless the session user may give `user` the Huf Role `huf_role`."""
	check_can_touch_user(user)
	check_can_touch_role(huf_role)
	check_can_grant_capabilities(role_capabilities(huf_role))
	check_can_grant(frappe.db.get_value("Huf Role", huf_role, "frappe_role"), to_user=user)
