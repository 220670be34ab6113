"""Who may read a Knowledge Source and its Knowledge Inputs: knowledge follows the agents that use it.

On top of the DocPerms, a user who is not a Huf Manager / System Manager reads a source when
- they own it, or
- no Agent uses it (no Agent Knowledge row names it), or
- at least one Agent that uses it is open to them: it lists no Allowed Users / Allowed Roles
  (so an unrestricted agent keeps the source open to every Huf User), or it lists the user or one
  of their roles. Whether an agent is disabled does not matter.
A Knowledge Input follows its source. The same SQL condition serves list queries (one query, no
per-row Python) and document checks, so `get_list` and `get_doc` always agree. Wired in hooks.py.
"""

from __future__ import annotations

import frappe

from huf.huf.record_access import agent_open_condition, is_privileged
from huf.huf.stored_doc import as_stored

SOURCE = "`tabKnowledge Source`"


def source_condition(user: str) -> str:
	"""SQL true for the rows of `tabKnowledge Source` that `user` may read (no privilege check)."""
	links = (
		"select 1 from `tabAgent Knowledge` ak where ak.`parenttype` = 'Agent'"
		f" and ak.`knowledge_source` = {SOURCE}.`name`"
	)
	return (
		f"({SOURCE}.`owner` = {frappe.db.escape(user)}"
		f" or not exists ({links})"
		f" or exists ({links} and {agent_open_condition(user, 'ak.`parent`')}))"
	)


def can_read_source(source: str | None, user: str | None = None) -> bool:
	"""Whether `user` may read the Knowledge Source named `source` (True for one not saved yet)."""
	user = user or frappe.session.user
	if not source or is_privileged(user):
		return True
	rows = frappe.db.sql(
		f"select case when {source_condition(user)} then 1 else 0 end from {SOURCE} where {SOURCE}.`name` = %s",
		(source,),
	)
	return not rows or bool(rows[0][0])


def source_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Knowledge Source."""
	user = user or frappe.session.user
	return "" if is_privileged(user) else source_condition(user)


def source_has_permission(
	doc, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Knowledge Source."""
	return can_read_source(doc.get("name"), user)


def input_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Knowledge Input: the inputs of the sources the user may read."""
	user = user or frappe.session.user
	if is_privileged(user):
		return ""
	return (
		f"`tabKnowledge Input`.`knowledge_source` in"
		f" (select {SOURCE}.`name` from {SOURCE} where {source_condition(user)})"
	)


def input_has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Document check for Knowledge Input: its source's rule."""
	return can_read_source(as_stored(doc, ptype, ("knowledge_source",)).get("knowledge_source"), user)
