"""The trust boundary: what only the engine writes, and the fields that say whose a record is.

Declared here, enforced by one `before_validate` hook (hooks.py, `check_write`) on every Huf DocType
and on data table records; the field-write matrix in docs/security.md lists every field.

- ENGINE_DOCTYPES: records the engine owns as a whole (runs, flow runs, tool calls, approvals...).
  Nobody inserts or saves them over REST, Desk or `frappe.client`, System Managers included; only the
  engine's own functions do, after their own checks (`ignore_permissions`, or `engine_write(doc)`).
- OWNERSHIP_FIELDS (and `owner` everywhere): whose a record is. On insert a User field must be the
  caller; after it, only a System Manager (or the engine) changes them. Permission hooks judge writes
  on the stored values (huf/huf/stored_doc.py), never on what a request body sent.
- Every other read-only field of these DocTypes is the engine's (counters, statuses, hashes): a save
  that is not the engine's keeps their stored values, as Frappe keeps fields above a permission level.
"""

from typing import Any

import frappe
from frappe import _
from frappe.model import no_value_fields

from huf.huf.data_tables.access import is_data_table

ENGINE_DOCTYPES = frozenset(
	{
		"Agent Context Artifact",
		"Agent Eval Result",
		"Agent Eval Run",
		"Agent Orchestration",
		"Agent Run",
		"Agent Tool Approval",
		"Agent Tool Call",
		"Flow Run",
	}
)

OWNERSHIP_FIELDS: dict[str, tuple[str, ...]] = {
	"Agent Conversation": ("user",),
	"Agent Message": ("conversation",),
}
OWNER = "owner"
_MODULE = "Huf"


class EngineOwnedError(frappe.PermissionError):
	"""A client tried to write what only the engine writes, or to change whose a record is."""


def engine_write(doc: Any) -> Any:
	"""Mark `doc` as written by the engine (its caller has checked permission); returns it."""
	doc.flags.huf_engine_write = True
	return doc


def is_engine_write(doc: Any) -> bool:
	return bool(doc.flags.ignore_permissions or doc.flags.huf_engine_write)


def is_privileged_writer(user: str | None = None) -> bool:
	"""Whether `user` may change whose a record is: Administrator and System Managers."""
	user = user or frappe.session.user
	return user == "Administrator" or "System Manager" in frappe.get_roles(user)


def ownership_fields(doctype: str) -> tuple[str, ...]:
	"""`owner` (none on a Single) and the DocType's own ownership fields."""
	own = OWNERSHIP_FIELDS.get(doctype, ())
	return own if frappe.get_meta(doctype).issingle else (OWNER, *own)


def guard(doc: Any, method: str | None = None) -> None:
	"""before_validate hook: refuse what only the engine writes; keep engine fields as stored."""
	if is_engine_write(doc):
		return
	if doc.doctype in ENGINE_DOCTYPES:
		frappe.throw(
			_("{0} records are written by Huf itself and cannot be created or changed directly.").format(
				_(doc.doctype)
			),
			EngineOwnedError,
		)
	if doc.is_new():
		check_new_ownership(doc)
		return
	before = doc.get_doc_before_save()
	if before is None:
		return
	check_ownership_unchanged(doc, before)
	keep_engine_fields(doc, before)


def check_new_ownership(doc: Any) -> None:
	"""On insert, a User ownership field names the caller (unless a System Manager sets it)."""
	user = frappe.session.user
	for fieldname in OWNERSHIP_FIELDS.get(doc.doctype, ()):
		field = doc.meta.get_field(fieldname)
		value = doc.get(fieldname)
		if field and field.options == "User" and value and value != user and not is_privileged_writer(user):
			frappe.throw(
				_("{0} must be you: you cannot create {1} for {2}.").format(
					_(field.label), _(doc.doctype), frappe.bold(value)
				),
				EngineOwnedError,
			)


def check_ownership_unchanged(doc: Any, before: Any) -> None:
	for fieldname in ownership_fields(doc.doctype):
		if (doc.get(fieldname) or None) == (before.get(fieldname) or None) or is_privileged_writer():
			continue
		label = _("owner") if fieldname == OWNER else _(doc.meta.get_label(fieldname))
		frappe.throw(
			_("Only a System Manager may change the {0} of {1} {2}.").format(
				label, _(doc.doctype), frappe.bold(doc.name)
			),
			EngineOwnedError,
		)


def keep_engine_fields(doc: Any, before: Any) -> None:
	"""Read-only fields keep their stored values (a stale Desk form or a forged body changes nothing)."""
	for fieldname in engine_fields(doc.doctype):
		doc.set(fieldname, before.get(fieldname))


def engine_fields(doctype: str) -> list[str]:
	"""The read-only fields of `doctype` that are not ownership fields (the engine's to write)."""
	meta = frappe.get_meta(doctype)
	owned = set(ownership_fields(doctype))
	return [
		field.fieldname
		for field in meta.fields
		if field.read_only and field.fieldname not in owned and field.fieldtype not in no_value_fields
	]


def check_write(doc: Any, method: str | None = None) -> None:
	"""before_validate hook for every DocType: `guard` on Huf's DocTypes and on data table records."""
	if doc.meta.module == _MODULE or is_data_table(doc.doctype):
		guard(doc, method)
