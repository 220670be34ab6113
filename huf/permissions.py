"""Capability-based permissions (the spec's module): `has_capability(user, capability)` and `get_me()`.

The rules live in `huf.huf.capabilities`; see docs/security.md "Capabilities".
"""

import frappe
from frappe.utils import get_fullname

from huf.huf.capabilities import capabilities_of, check_capability, has_capability

__all__ = ["check_capability", "get_me", "has_capability"]


@frappe.whitelist()
def get_me() -> dict:
	"""Who is signed in: user, full name, roles, Huf role and capabilities."""
	user = frappe.session.user
	if user == "Guest":
		frappe.throw(frappe._("Please log in."), frappe.AuthenticationError)
	return {
		"user": user,
		"full_name": get_fullname(user),
		"roles": frappe.get_roles(user),
		"huf_role": frappe.db.get_value("Huf User Role", {"user": user, "enabled": 1}, "huf_role"),
		"capabilities": capabilities_of(user),
	}
