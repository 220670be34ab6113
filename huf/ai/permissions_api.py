"""The users and roles API (the spec's module): the dashboard's /huf/users and /huf/roles pages.

Each endpoint checks its capability (huf.huf.capabilities) and the escalation rules (huf.huf.role_grants:
nobody grants a capability or role they do not hold, only Huf Admins touch Huf Admin, nobody changes
their own role) and delegates to huf.ai.people. docs/security.md "Capabilities".
"""

import frappe
from frappe import _

from huf.ai.people import roles, users
from huf.huf.capabilities import check_capability, has_capability


def _check_any(*capabilities: str) -> None:
	"""Throw (naming the first capability) unless the session user holds one of `capabilities`."""
	if frappe.session.user == "Guest":
		frappe.throw(_("Please log in."), frappe.AuthenticationError)
	if not any(has_capability(None, c) for c in capabilities):
		check_capability(capabilities[0])


@frappe.whitelist()
def get_users() -> list:
	"""Huf's users with their Huf role (users.manage or users.invite)."""
	_check_any("users.manage", "users.invite")
	return users.list_users()


@frappe.whitelist(methods=["POST"])
def invite_user(email: str, full_name: str | None = None, huf_role: str | None = None) -> dict:
	"""Create a user with a Huf Role (users.invite; never a role above your own); an existing one: users.manage."""
	check_capability("users.invite")
	return users.invite(email, full_name or "", huf_role or "Huf User")


@frappe.whitelist(methods=["POST"])
def update_user_role(user: str, huf_role: str) -> dict:
	"""Give another user a Huf Role (users.manage; never a role above your own, never your own)."""
	check_capability("users.manage")
	return users.change_role(user, huf_role)


@frappe.whitelist(methods=["POST"])
def set_user_enabled(user: str, enabled: int) -> dict:
	"""Enable or disable another user's account (users.manage)."""
	check_capability("users.manage")
	return users.set_enabled(user, bool(enabled))


@frappe.whitelist()
def get_huf_roles() -> list:
	"""Huf Roles with their capabilities (roles.manage, users.manage or users.invite)."""
	_check_any("roles.manage", "users.manage", "users.invite")
	return roles.list_roles()


@frappe.whitelist()
def get_capabilities_catalogue() -> list:
	"""Every capability with its label and group (roles.manage, users.manage or users.invite)."""
	_check_any("roles.manage", "users.manage", "users.invite")
	return roles.catalogue()


@frappe.whitelist(methods=["POST"])
def create_huf_role(
	role_name: str,
	description: str | None = None,
	capabilities: list | str | None = None,
	frappe_role: str | None = None,
) -> dict:
	"""A new Huf Role (roles.manage; only capabilities you hold)."""
	check_capability("roles.manage")
	return roles.create(role_name, description, capabilities or [], frappe_role)


@frappe.whitelist(methods=["POST"])
def update_huf_role(role_name: str, capabilities: list | str, description: str | None = None) -> dict:
	"""Replace a Huf Role's capabilities (roles.manage; only capabilities you hold)."""
	check_capability("roles.manage")
	return roles.update(role_name, capabilities, description)
