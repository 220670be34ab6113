"""Capabilities checked on documents: one `has_permission` hook (hooks.py) per DocType whose reads, creates,
writes or deletes the capability catalogue names, and the list condition of the DocTypes it names for
reading. Both only ever refuse; Frappe's DocPerms still apply.

`PROMISED_ACTIONS` says what each capability promises its holders by DocPerm; the default Huf Roles agree
with the DocPerms of their Frappe roles (huf/tests/test_capability_docperms.py checks every capability).
"""

import frappe

from huf.huf.capabilities import capabilities_of, check_capability
from huf.huf.stored_doc import READ_TYPES

_MANAGE = ("create", "write", "delete")
READ, WRITE, CREATE, DELETE = "read", "write", "create", "delete"


def _same(capability: str) -> dict[str, str]:
	return dict.fromkeys(_MANAGE, capability)


# DocType -> {ptype: capability the user must hold for it}; "read" stands for every reading ptype.
DOCTYPE_CAPABILITIES: dict[str, dict[str, str]] = {
	"Agent": {READ: "agent.view", CREATE: "agent.create", WRITE: "agent.edit", DELETE: "agent.delete"},
	# Shared prompt templates are part of building agents.
	"Agent Prompt": _same("agent.edit"),
	"Agent Summary Prompt": _same("agent.edit"),
	"Agent Conversation": {READ: "chat.view_own", CREATE: "chat.use"},
	"Agent Message": {READ: "chat.view_own", CREATE: "chat.use"},
	"Knowledge Source": {
		CREATE: "knowledge.create",
		WRITE: "knowledge.manage",
		DELETE: "knowledge.manage",
	},
	"Knowledge Input": {
		CREATE: "knowledge.create",
		WRITE: "knowledge.manage",
		DELETE: "knowledge.manage",
	},
	"Agent Tool Function": {
		READ: "tools.use",
		CREATE: "tools.create",
		WRITE: "tools.manage",
		DELETE: "tools.manage",
	},
	"Flow Definition": {CREATE: "flows.create", WRITE: "flows.manage", DELETE: "flows.manage"},
	"Flow Run": {CREATE: "flows.use"},
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

# A capability that includes another: seeing every agent includes seeing agents, every conversation
# includes one's own.
WIDER: dict[str, tuple[str, ...]] = {
	"agent.view": ("agent.view_all",),
	"chat.view_own": ("chat.view_all",),
}

# Stands for the DocType of every data table ("HF <table>", DocPerms from huf/huf/data_tables/builder.py).
DATA_TABLE = "HF <data table>"


def _acts(doctype: str, *ptypes: str) -> tuple[tuple[str, str], ...]:
	return tuple((doctype, ptype) for ptype in ptypes)


# conversations, their messages and their runs (the record rules narrow them to one's own)
_CHATS_READ = _acts("Agent Conversation", READ) + _acts("Agent Message", READ) + _acts("Agent Run", READ)

# capability -> the (DocType, ptype) its holders may do by DocPerm; a default Huf Role that does not hold it
# may not, unless another capability it holds promises the same. Record rules (own / open to the user)
# and the capability checks above narrow them further.
PROMISED_ACTIONS: dict[str, tuple[tuple[str, str], ...]] = {
	"agent.view": _acts("Agent", READ),
	"agent.use": _acts("Agent", READ) + _acts("Agent Conversation", CREATE),
	"agent.create": _acts("Agent", CREATE),
	"agent.edit": _acts("Agent", WRITE),
	"agent.delete": _acts("Agent", DELETE),
	"agent.view_all": _acts("Agent", READ),
	"chat.use": _acts("Agent Conversation", CREATE, WRITE) + _acts("Agent Message", CREATE),
	"chat.view_own": _CHATS_READ,
	"chat.view_all": _CHATS_READ,
	"knowledge.use": _acts("Knowledge Source", READ) + _acts("Knowledge Input", READ),
	"knowledge.create": _acts("Knowledge Source", CREATE) + _acts("Knowledge Input", CREATE),
	"knowledge.manage": _acts("Knowledge Source", WRITE, DELETE) + _acts("Knowledge Input", WRITE, DELETE),
	"tools.use": _acts("Agent Tool Function", READ),
	"tools.create": _acts("Agent Tool Function", CREATE),
	"tools.manage": _acts("Agent Tool Function", WRITE, DELETE),
	"tools.approve": _acts("Agent Tool Approval", READ, WRITE),
	# starting runs, and giving one's own waiting runs their input
	"flows.use": _acts("Flow Run", CREATE, READ, WRITE),
	"flows.create": _acts("Flow Definition", CREATE),
	"flows.manage": _acts("Flow Definition", WRITE, DELETE),
	"system.providers.manage": _acts("AI Provider", *_MANAGE),
	"system.models.manage": _acts("AI Model", *_MANAGE),
	"system.mcp.manage": _acts("MCP Server", *_MANAGE),
	"system.integrations.manage": _acts("Integration Service", *_MANAGE)
	+ _acts("Integration Settings", *_MANAGE),
	"system.settings.manage": _acts("Agent Settings", WRITE),
	"data.tables.manage": _acts("Huf Data Table", *_MANAGE),
	"data.records.create": _acts(DATA_TABLE, CREATE),
	"data.records.view_own": _acts(DATA_TABLE, READ),
	"data.records.view_all": _acts(DATA_TABLE, READ),
	"data.records.edit_own": _acts(DATA_TABLE, WRITE, DELETE),
	"data.records.edit_all": _acts(DATA_TABLE, WRITE, DELETE),
	"users.invite": (),  # an endpoint (huf.ai.permissions_api.invite_user), no DocPerm of its own
	"users.manage": _acts("Huf User Role", *_MANAGE),
	"roles.manage": _acts("Huf Role", *_MANAGE),
}


def capability_for(doctype: str, ptype: str | None) -> str | None:
	"""The capability `ptype` on `doctype` needs, if the catalogue names one."""
	return DOCTYPE_CAPABILITIES.get(doctype, {}).get(READ if ptype in READ_TYPES else ptype or "")


def holds(held: list[str] | set[str], capability: str) -> bool:
	"""Whether the capabilities `held` include `capability` (or one that includes it, see WIDER)."""
	return capability in held or any(wider in held for wider in WIDER.get(capability, ()))


def allows(held: list[str] | set[str], doctype: str, ptype: str | None) -> bool:
	"""Whether the capabilities `held` allow `ptype` on `doctype` (True when the catalogue names none)."""
	capability = capability_for(doctype, ptype)
	return not capability or holds(held, capability)


def has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Refuse the reads, creates, writes and deletes the catalogue names to users without their capability."""
	if not capability_for(doc.doctype, ptype):
		return True
	return allows(capabilities_of(user or frappe.session.user), doc.doctype, ptype)


def can_read(doctype: str, user: str | None = None) -> bool:
	"""Whether `user` (default: the session user) holds the capability reading `doctype` needs, if any."""
	if not capability_for(doctype, READ):
		return True
	return allows(capabilities_of(user or frappe.session.user), doctype, READ)


def read_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for a DocType whose reading needs a capability: nothing for users without it."""
	return "" if can_read(doctype or "", user) else "1=0"


def check_can_read(doctype: str, user: str | None = None) -> None:
	"""Throw a PermissionError naming the capability reading `doctype` needs, unless `user` holds it."""
	if not can_read(doctype, user):
		check_capability(capability_for(doctype, READ), user)


def name_missing_read_capability(doctype: str) -> None:
	"""When the session user's DocPerms let them read `doctype` but a document of it was refused, throw naming
	the capability they lack for reading it, if that is why (else return: the caller says what was refused)."""
	if frappe.has_permission(doctype, "read"):
		check_can_read(doctype)
