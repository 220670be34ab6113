"""Renaming a document (or merging it into another) and every Link that points to it."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.model.meta import _all_doctype_names


def rename_doc(
	doctype: str | None = None,
	old: str | int | None = None,
	new: str | int | None = None,
	force: bool = False,
	merge: bool = False,
	ignore_permissions: bool = False,
	ignore_if_exists: bool = False,
	show_alert: bool = True,
	rebuild_search: bool = True,
	doc=None,
	validate: bool = True,
) -> str:
	"""Give `old` the name `new` (or merge it into `new`), updating Link fields of every DocType."""
	if not ((doctype and old and new) or (doc and new)):
		raise TypeError(
			"{doctype, old, new} or {doc, new} are required arguments for frappe.model.rename_doc"
		)
	old = old or doc.name
	doctype = doctype or doc.doctype
	force, merge = frappe.utils.sbool(force), frappe.utils.sbool(merge)
	meta = frappe.get_meta(doctype)
	if (meta.autoname or "").lower() == "autoincrement":
		old, new = frappe.utils.cint(old), frappe.utils.cint(new)

	old_doc = None
	if validate:
		old_doc = doc or frappe.get_doc(doctype, old)
		out = old_doc.run_method("before_rename", old, new, merge) or {}
		new = (out.get("new") or new) if isinstance(out, dict) else (out or new)
		new = validate_rename(
			doctype,
			old,
			new,
			meta,
			merge,
			force=force,
			ignore_permissions=ignore_permissions,
			ignore_if_exists=ignore_if_exists,
			old_doc=old_doc,
		)

	if not merge:
		_rename_parent_and_children(doctype, old, new, meta)
	_update_link_fields(doctype, old, new)
	_update_dynamic_links(doctype, old, new)
	if frappe.db.table_exists("File"):
		frappe.db.sql(
			"update `tabFile` set attached_to_name=%s where attached_to_doctype=%s and attached_to_name=%s",
			(str(new), doctype, str(old)),
		)

	frappe.clear_document_cache(doctype)
	new_doc = frappe.get_doc(doctype, new)
	new_doc.run_method("after_rename", old, new, merge)
	if merge:
		frappe.delete_doc(doctype, old, ignore_permissions=True, force=True)
	else:
		frappe.db.sql(
			"update `__Auth` set name=%s where doctype=%s and name=%s", (str(new), doctype, str(old))
		)
	frappe.clear_document_cache(doctype)
	if show_alert:
		frappe.msgprint(
			_("Document renamed from {0} to {1}").format(frappe.bold(old), frappe.bold(new)),
			alert=True,
			indicator="green",
		)
	frappe.publish_realtime(
		"doc_rename",
		{"doctype": doctype, "old": old, "new": new},
		doctype=doctype,
		docname=old,
		after_commit=True,
	)
	return new


def validate_rename(
	doctype: str,
	old,
	new,
	meta,
	merge: bool,
	force: bool = False,
	ignore_permissions: bool = False,
	ignore_if_exists: bool = False,
	save_point: bool = False,
	old_doc=None,
):
	"""The checks Frappe runs before renaming; returns the (validated) new name."""
	from frappe.model.naming import validate_name

	exists = frappe.db.sql(f"select name from `tab{doctype}` where name=%s", (new,), pluck=True)
	exists = exists[0] if exists else None
	if not frappe.db.exists(doctype, old):
		frappe.throw(_("Can't rename {0} to {1} because {0} doesn't exist.").format(old, new))
	if old == new:
		frappe.throw(_("No changes made because old and new name are the same."))
	if exists and exists != new:
		# only the case differs: renaming to fix case is allowed
		exists = None
	if merge and not exists:
		frappe.throw(_("{0} {1} does not exist, select a new target to merge").format(doctype, new))
	if not merge and exists and not ignore_if_exists:
		frappe.throw(_("Another {0} with name {1} exists, select another name").format(doctype, new))
	if not (ignore_permissions or frappe.has_permission(doctype, "write", doc=old_doc)):
		frappe.throw(
			_("You need write permission on {0} {1} to rename").format(doctype, old), frappe.PermissionError
		)
	if merge and not (
		ignore_permissions or frappe.has_permission(doctype, "write", doc=frappe.get_doc(doctype, new))
	):
		frappe.throw(
			_("You need write permission on {0} {1} to merge").format(doctype, new), frappe.PermissionError
		)
	if not force and not ignore_permissions and not meta.allow_rename:
		frappe.throw(_("{0} not allowed to be renamed").format(_(doctype)))
	if isinstance(new, int):
		return new
	return validate_name(doctype, new)


def _rename_parent_and_children(doctype: str, old, new, meta) -> None:
	frappe.db.sql(f"update `tab{doctype}` set name=%s where name=%s", (new, old))
	autoname = meta.autoname or ""
	if autoname.startswith("field:"):
		fieldname = autoname.split(":", 1)[1].strip()
		if meta.has_field(fieldname):
			frappe.db.sql(f"update `tab{doctype}` set `{fieldname}`=%s where name=%s", (new, new))
	for df in meta.get_table_fields():
		frappe.db.sql(
			f"update `tab{df.options}` set parent=%s where parent=%s and parenttype=%s", (new, old, doctype)
		)


def _update_link_fields(doctype: str, old, new) -> None:
	for other in _all_doctype_names():
		meta = frappe.get_meta(other)
		for link in meta.get_link_fields():
			if link.options != doctype:
				continue
			if meta.issingle:
				frappe.db.sql(
					"update tabSingles set value=%s where doctype=%s and field=%s and value=%s",
					(str(new), other, link.fieldname, str(old)),
				)
			elif frappe.db.table_exists(other):
				frappe.db.sql(
					f"update `tab{other}` set `{link.fieldname}`=%s where `{link.fieldname}`=%s",
					(str(new), str(old)),
				)


def _update_dynamic_links(doctype: str, old, new) -> None:
	for other in _all_doctype_names():
		meta = frappe.get_meta(other)
		if meta.issingle or not frappe.db.table_exists(other):
			continue
		for link in meta.get_dynamic_link_fields():
			if not meta.has_field(link.options):
				continue
			frappe.db.sql(
				f"update `tab{other}` set `{link.fieldname}`=%s where `{link.options}`=%s and `{link.fieldname}`=%s",
				(str(new), doctype, str(old)),
			)
