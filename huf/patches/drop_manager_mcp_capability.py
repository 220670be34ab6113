"""The system Huf Manager role no longer holds system.mcp.manage (Manage MCP servers).

Huf Managers read MCP servers but their DocPerms never let them create, change or delete one, so the
capability promised what the role could not do. New sites no longer give it (`DEFAULT_HUF_ROLES`); on an
existing site it goes from the system Huf Manager role unless the site's DocPerms let Huf Managers write
MCP Servers (then the administrator meant it, and it stays).
"""

import frappe

CAPABILITY = "system.mcp.manage"
ROLE = "Huf Manager"


def execute() -> None:
	if not frappe.db.exists("Huf Role", ROLE):
		return
	role = frappe.get_doc("Huf Role", ROLE)
	if not role.is_system_role or role.frappe_role != ROLE:
		return
	if any(perm.role == ROLE and perm.write for perm in frappe.get_meta("MCP Server").permissions):
		return
	rows = [row for row in role.permissions if row.capability != CAPABILITY]
	if len(rows) != len(role.permissions):
		role.set("permissions", rows)
		role.save(ignore_permissions=True)
