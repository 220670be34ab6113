"""The capability tools.approve (Approve tool calls) joins the system Huf Roles that default to it.

New sites get it from `DEFAULT_HUF_ROLES` on install; `create_huf_roles` leaves existing roles as
the administrator configured them, so this adds it once to the system roles whose defaults include it.
"""

import frappe

from huf.huf.capabilities import CAPABILITIES, DEFAULT_HUF_ROLES

CAPABILITY = "tools.approve"


def execute() -> None:
	for role_name, spec in DEFAULT_HUF_ROLES.items():
		if CAPABILITY not in spec["capabilities"] or not frappe.db.exists("Huf Role", role_name):
			continue
		role = frappe.get_doc("Huf Role", role_name)
		if not role.is_system_role or any(row.capability == CAPABILITY for row in role.permissions):
			continue
		role.append("permissions", {"capability": CAPABILITY, "label": CAPABILITIES[CAPABILITY]})
		role.save(ignore_permissions=True)
