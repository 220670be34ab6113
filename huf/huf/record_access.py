"""Row-level access: Huf Users and Viewers see only their own conversations, messages and runs,
and only the agents open to them. Wired in hooks.py (permission_query_conditions, has_permission)."""

import frappe

from huf.huf.capabilities import has_capability
from huf.huf.capability_access import can_read
from huf.huf.stored_doc import as_stored

NOTHING = "1=0"


def is_privileged(user: str | None = None, capability: str = "chat.view_all") -> bool:
	"""Whether `user` may see every record of Huf's per-user DocTypes: they hold `capability`
	(chat.view_all; agent.view_all for agents), by default System Managers and Huf Managers."""
	user = user or frappe.session.user
	if user == "Administrator":
		return True
	return has_capability(user, capability)


def _own_conversations_subquery(user: str) -> str:
	value = frappe.db.escape(user)
	return f"select `name` from `tabAgent Conversation` where `owner` = {value} or `user` = {value}"


def _owns_conversation(conversation: str | None, user: str) -> bool:
	if not conversation:
		return False
	row = frappe.db.get_value("Agent Conversation", conversation, ["owner", "user"], as_dict=True)
	return bool(row) and user in (row.owner, row.user)


# -- Agent Conversation ---------------------------------------------------------------------------


def conversation_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent Conversation (none without chat.view_own)."""
	user = user or frappe.session.user
	if not can_read("Agent Conversation", user):
		return NOTHING
	if is_privileged(user):
		return ""
	value = frappe.db.escape(user)
	return f"(`tabAgent Conversation`.`owner` = {value} or `tabAgent Conversation`.`user` = {value})"


def conversation_has_permission(
	doc, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Agent Conversation (writes: its owner and user as stored)."""
	user = user or frappe.session.user
	if is_privileged(user):
		return True
	doc = as_stored(doc, ptype, ("owner", "user"))
	return user in (doc.get("owner"), doc.get("user"))


# -- Agent Message --------------------------------------------------------------------------------


def message_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent Message: messages of the user's own conversations (none without
	chat.view_own)."""
	user = user or frappe.session.user
	if not can_read("Agent Message", user):
		return NOTHING
	if is_privileged(user):
		return ""
	return f"`tabAgent Message`.`conversation` in ({_own_conversations_subquery(user)})"


def message_has_permission(
	doc, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Agent Message (also stops posting into someone else's conversation)."""
	user = user or frappe.session.user
	if is_privileged(user):
		return True
	return _owns_conversation(as_stored(doc, ptype, ("conversation",)).get("conversation"), user)


# -- Agent Run ------------------------------------------------------------------------------------


def run_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent Run: runs the user started or that belong to their conversations."""
	user = user or frappe.session.user
	if is_privileged(user):
		return ""
	value = frappe.db.escape(user)
	return (
		f"(`tabAgent Run`.`owner` = {value} or `tabAgent Run`.`user` = {value}"
		f" or `tabAgent Run`.`conversation` in ({_own_conversations_subquery(user)}))"
	)


def run_has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Document check for Agent Run."""
	user = user or frappe.session.user
	if is_privileged(user):
		return True
	doc = as_stored(doc, ptype, ("owner", "user", "conversation"))
	if user in (doc.get("owner"), doc.get("user")):
		return True
	return _owns_conversation(doc.get("conversation"), user)


# -- Agent ----------------------------------------------------------------------------------------


def agent_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent: open agents (no allowed users or roles) or those listing the user (none
	without agent.view)."""
	return open_agents_query_conditions(user, "`tabAgent`.`name`")


def agent_rows_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent User / Agent Role (who may use an agent): rows of agents open to the user."""
	return open_agents_query_conditions(user, f"`tab{doctype}`.`parent`")


def open_agents_query_conditions(user: str | None, column: str) -> str:
	"""List condition for rows whose `column` names an agent: those of agents open to the user (none
	without agent.view, all with agent.view_all)."""
	user = user or frappe.session.user
	if not can_read("Agent", user):
		return NOTHING
	if is_privileged(user, "agent.view_all"):
		return ""
	return agent_open_condition(user, column)


def agent_open_condition(user: str, agent: str = "`tabAgent`.`name`") -> str:
	"""SQL true when the agent named by the column `agent` is open to `user` (no privilege check)."""
	value = frappe.db.escape(user)
	roles = ", ".join(frappe.db.escape(role) for role in frappe.get_roles(user)) or "''"
	users_of = f"select 1 from `tabAgent User` au where au.`parenttype` = 'Agent' and au.`parent` = {agent}"
	roles_of = f"select 1 from `tabAgent Role` ar where ar.`parenttype` = 'Agent' and ar.`parent` = {agent}"
	return (
		f"((not exists ({users_of}) and not exists ({roles_of}))"
		f" or exists ({users_of} and au.`user` = {value})"
		f" or exists ({roles_of} and ar.`role` in ({roles})))"
	)


def agent_has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Document check for Agent: see `is_agent_open_to`."""
	return is_agent_open_to(doc, user)


def is_agent_open_to(agent, user: str | None = None) -> bool:
	"""Whether `user` may use `agent` (a document or name) under its Allowed Users / Allowed Roles."""
	user = user or frappe.session.user
	if is_privileged(user, "agent.view_all"):
		return True
	if isinstance(agent, str):
		agent = frappe.get_doc("Agent", agent)
	users = {row.user for row in agent.get("agent_user") or []}
	roles = {row.role for row in agent.get("agent_role") or []}
	if not users and not roles:
		return True
	return user in users or not roles.isdisjoint(frappe.get_roles(user))
