"""Capabilities checked on documents: one `has_permission` hook (hooks.py) per DocType whose create,
write or delete the capability catalogue names. It only ever refuses; Frappe's DocPerms still apply."""

import frappe

from huf.huf.capabilities import has_capability

_MANAGE = ("create", "write", "delete")


def _same(capability: str) -> dict[str, str]:
	return dict.fromkeys(_MANAGE, capability)


# DocType -> {ptype: capability the user must hold for it}
DOCTYPE_CAPABILITIES: dict[str, dict[str, str]] = {
	"Agent": {"create": "agent.create", "write": "agent.edit", "delete": "agent.delete"},
	# Shared prompt templates are part of building agents.
	"Agent Prompt": _same("agent.edit"),
	"Agent Summary Prompt": _same("agent.edit"),
	"Agent Conversation": {"create": "chat.use"},
	"Agent Message": {"create": "chat.use"},
	"Knowledge Source": {
		"create": "knowledge.create",
		"write": "knowledge.manage",
		"delete": "knowledge.manage",
	},
	"Knowledge Input": {
		"create": "knowledge.create",
		"write": "knowledge.manage",
		"delete": "knowledge.manage",
	},
	"Agent Tool Function": {"create": "tools.create", "write": "tools.manage", "delete": "tools.manage"},
	"Flow Definition": {"create": "flows.create", "write": "flows.manage", "delete": "flows.manage"},
	"Flow Run": {"create": "flows.use"},
	"AI Provider": _same("system.providers.manage"),
	"AI Model": _same("system.models.manage"),
	"MCP Server": _same("system.mcp.manage"),
	"Agent Settings": _same("system.settings.manage"),
	"Integration Service": _same("system.integrations.manage"),
	"Integration Settings": _same("system.integrations.manage"),
	"Huf Data Table": _same("data.tables.manage"),
	"Huf Role": _same("roles.manage"),
	"Huf User Role": _same("users.manage"),
}


def capability_for(doctype: str, ptype: str | None) -> str | None:
	"""The capability `ptype` on `doctype` needs, if the catalogue names one."""
	return DOCTYPE_CAPABILITIES.get(doctype, {}).get(ptype or "")


def has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Refuse create/write/delete to users without the capability that action needs."""
	capability = capability_for(doc.doctype, ptype)
	return not capability or has_capability(user or frappe.session.user, capability)
