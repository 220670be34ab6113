"""Capabilities of Huf Roles, who holds which, and the default roles seeded on install.

`capabilities_of(user)`: the capabilities of the Huf Roles a user holds, through their Frappe roles or
an enabled Huf User Role (System Managers and Administrator hold all). `has_capability(user, capability)`
and `check_capability(capability)` (throws a PermissionError naming the missing capability) are what
the server checks, in addition to Frappe's DocPerms, never instead of them.
"""

import frappe
from frappe import _

from huf.huf import cache_keys

# capability -> label; the order is the order of the Select on Huf Role Permission.
CAPABILITIES: dict[str, str] = {
	"agent.view": "See agents",
	"agent.use": "Use agents",
	"agent.create": "Create agents",
	"agent.edit": "Edit agents",
	"agent.delete": "Delete agents",
	"agent.view_all": "See all agents",
	"chat.use": "Chat with agents",
	"chat.view_own": "See own conversations",
	"chat.view_all": "See all conversations",
	"knowledge.use": "Use knowledge sources",
	"knowledge.create": "Create knowledge sources",
	"knowledge.manage": "Manage knowledge sources",
	"tools.use": "Use tools",
	"tools.create": "Create tools",
	"tools.manage": "Manage tools",
	"tools.approve": "Approve tool calls",
	"flows.use": "Run flows",
	"flows.create": "Create flows",
	"flows.manage": "Manage flows",
	"system.providers.manage": "Manage AI providers",
	"system.models.manage": "Manage AI models",
	"system.mcp.manage": "Manage MCP servers",
	"system.integrations.manage": "Manage integrations",
	"system.settings.manage": "Manage settings",
	"data.tables.manage": "Manage data tables",
	"data.records.create": "Create data records",
	"data.records.view_own": "See own data records",
	"data.records.view_all": "See all data records",
	"data.records.edit_own": "Edit own data records",
	"data.records.edit_all": "Edit all data records",
	"users.invite": "Invite users",
	"users.manage": "Manage users",
	"roles.manage": "Manage roles",
}

# What each default role holds agrees with its DocPerms: a capability's holders may do by DocPerm what it
# promises, the others may not (capability_access.PROMISED_ACTIONS, tested for every capability). MCP
# servers stay System Manager work (Huf Managers read them), as providers and models do.
_MANAGER = [
	c for c in CAPABILITIES if c.split(".")[0] in ("agent", "chat", "knowledge", "tools", "flows", "data")
] + ["users.invite"]

_USER = [
	"agent.view",
	"agent.use",
	"chat.use",
	"chat.view_own",
	"knowledge.use",
	"tools.use",
	"flows.use",
	"data.records.create",
	"data.records.view_own",
	"data.records.edit_own",
]

# Huf Role name -> (Frappe role it grants, weight, description, capabilities)
DEFAULT_HUF_ROLES: dict[str, dict] = {
	"Huf Admin": {
		"frappe_role": "System Manager",
		"role_weight": 100,
		"role_description": "Everything, including providers, settings, users and roles.",
		"capabilities": list(CAPABILITIES),
	},
	"Huf Manager": {
		"frappe_role": "Huf Manager",
		"role_weight": 50,
		"role_description": "Builds and edits agents, tools, knowledge and flows.",
		"capabilities": _MANAGER,
	},
	"Huf User": {
		"frappe_role": "Huf User",
		"role_weight": 20,
		"role_description": "Uses agents, chat, knowledge, tools and flows.",
		"capabilities": _USER,
	},
	"Huf Viewer": {
		"frappe_role": "Huf Viewer",
		"role_weight": 10,
		"role_description": "Reads agents and their own conversations.",
		"capabilities": ["agent.view", "chat.view_own"],
	},
}

CACHE_PREFIX = "huf:capabilities:"
CACHE_SECONDS = 300  # the longest a change made without the controllers (e.g. SQL) goes unseen

# Frappe roles that Huf User Role assignments manage (System Manager is granted, never taken away).
HUF_FRAPPE_ROLES = ("Huf Manager", "Huf User", "Huf Viewer")


def capabilities_of(user: str | None = None) -> list[str]:
	"""The capabilities `user` (default: the session user) holds, in catalogue order.

	Kept in the cache per user with the Frappe roles they were worked out for (a change of roles is a
	miss); a change to any Huf Role or Huf User Role drops them all (`forget_capabilities`)."""
	user = user or frappe.session.user
	roles = frappe.get_roles(user)
	if user == "Administrator" or "System Manager" in roles:
		return list(CAPABILITIES)
	key, held_roles = f"{CACHE_PREFIX}{user}", sorted(roles)
	cached = frappe.cache.get_value(key)
	if cached and cached[0] == held_roles:
		return list(cached[1])
	capabilities = _read_capabilities(user, roles)
	frappe.cache.set_value(key, (held_roles, capabilities), expires_in_sec=CACHE_SECONDS)
	return capabilities


def forget_capabilities() -> None:
	"""Drop every user's cached capabilities (Huf Role and Huf User Role call it on every change)."""
	cache_keys.forget(CACHE_PREFIX, prefix=True)


def _read_capabilities(user: str, roles: list[str]) -> list[str]:
	assigned = frappe.db.get_value("Huf User Role", {"user": user, "enabled": 1}, "huf_role")
	if assigned:
		# The assigned Huf Role decides; the Huf-managed Frappe role it grants adds nothing of its own.
		roles = [role for role in roles if role not in HUF_FRAPPE_ROLES]
	# Through a Frappe role: the default Huf Roles, and custom ones mapped to a Frappe role of their own
	# (a custom role that reuses Huf's or System Manager's Frappe role applies only where it is assigned).
	shared = (*HUF_FRAPPE_ROLES, "System Manager")
	huf_roles = {
		row.name
		for row in frappe.get_all(
			"Huf Role",
			filters={"frappe_role": ["in", roles or [""]]},
			fields=["name", "frappe_role", "is_system_role"],
		)
		if row.is_system_role or row.frappe_role not in shared
	}
	if assigned:
		huf_roles.add(assigned)
	if not huf_roles:
		return []
	granted = set(
		frappe.get_all(
			"Huf Role Permission",
			filters={"parenttype": "Huf Role", "parent": ["in", list(huf_roles)]},
			pluck="capability",
		)
	)
	return [c for c in CAPABILITIES if c in granted]


def has_capability(user: str | None, capability: str) -> bool:
	return capability in capabilities_of(user)


def check_capability(capability: str, user: str | None = None) -> None:
	"""Throw a PermissionError that names `capability` unless `user` (default: the session user) holds it."""
	if not has_capability(user, capability):
		frappe.throw(
			_("You need the capability {0} ({1}) for this.").format(
				frappe.bold(capability), _(CAPABILITIES.get(capability, capability))
			),
			frappe.PermissionError,
		)
