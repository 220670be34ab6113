"""Row-level access to data table records, by capability (hooks.py registers both hooks for "*").

read needs data.records.view_all, or view_own on records the user owns; create needs data.records.create;
write and delete need data.records.edit_all, or edit_own on own records. The hooks only narrow what the
DocPerms of the table's DocType allow. Every other DocType returns at once (a prefix check, then a cached set)."""

import frappe

from huf.huf.capabilities import capabilities_of
from huf.huf.data_tables import DOCTYPE_PREFIX
from huf.huf.stored_doc import READ_TYPES, as_stored

CACHE_KEY = "huf:data_table_doctypes"


def _registered() -> set[str]:
	return set(frappe.get_all("Huf Data Table", pluck="doctype_name"))


def is_data_table(doctype: str | None) -> bool:
	"""Whether `doctype` is the DocType of a registered data table (cached; new tables found at once)."""
	if not doctype or not doctype.startswith(DOCTYPE_PREFIX):
		return False
	if doctype in set(frappe.cache.get_value(CACHE_KEY, generator=lambda: sorted(_registered())) or ()):
		return True
	# Not in the cached set: ask the database (a table created since), and refresh the set when found.
	if frappe.db.exists("Huf Data Table", {"doctype_name": doctype}):
		clear_cache()
		return True
	return False


def clear_cache() -> None:
	frappe.cache.delete_value(CACHE_KEY)


def record_rights(user: str | None = None, owner: str | None = None) -> dict[str, bool]:
	"""What `user` may do with data records (with a record of `owner`, when given)."""
	user = user or frappe.session.user
	caps = set(capabilities_of(user))
	own = owner is None or owner == user
	return {
		"view_all": "data.records.view_all" in caps,
		"edit_all": "data.records.edit_all" in caps,
		"edit_own": "data.records.edit_own" in caps,
		"create": "data.records.create" in caps,
		"read": "data.records.view_all" in caps or ("data.records.view_own" in caps and own),
		"write": "data.records.edit_all" in caps or ("data.records.edit_own" in caps and own),
		"manage": "data.tables.manage" in caps,
	}


def has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""has_permission hook for every DocType: narrows data table records to the user's capabilities."""
	if not is_data_table(getattr(doc, "doctype", None)):
		return True
	user = user or frappe.session.user
	if user == "Administrator":
		return True
	ptype = ptype or "read"
	if ptype == "create":
		return record_rights(user)["create"]
	rights = record_rights(user, as_stored(doc, ptype, ("owner",)).get("owner") or user)
	if ptype in READ_TYPES:
		return rights["read"]
	return rights["write"]


def query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""permission_query_conditions hook for every DocType: lists of a data table show what the user may read."""
	if not is_data_table(doctype):
		return ""
	user = user or frappe.session.user
	if user == "Administrator":
		return ""
	caps = set(capabilities_of(user))
	if "data.records.view_all" in caps:
		return ""
	if "data.records.view_own" in caps:
		return f"`tab{doctype}`.`owner` = {frappe.db.escape(user)}"
	return "1=0"
