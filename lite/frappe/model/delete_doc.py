"""Deleting documents: permission, on_trash, links that still point here, children, passwords."""

from __future__ import annotations

import frappe
from frappe import _


def delete_doc(doctype: str, name, force: bool = False, ignore_permissions: bool = False, flags=None, ignore_on_trash: bool = False, ignore_missing: bool = True) -> None:
	"""Delete one document (or each of a list of names)."""
	if isinstance(name, list | tuple):
		for n in name:
			delete_doc(doctype, n, force=force, ignore_permissions=ignore_permissions, flags=flags, ignore_on_trash=ignore_on_trash, ignore_missing=ignore_missing)
		return
	meta = frappe.get_meta(doctype)
	if meta.issingle:
		frappe.throw(_("Cannot delete a Single DocType"))
	if not frappe.db.exists(doctype, name):
		if ignore_missing:
			return
		frappe.throw(_("{0} {1} not found").format(_(doctype), name), frappe.DoesNotExistError)
	doc = frappe.get_doc(doctype, name)
	doc.flags.update(flags or {})
	if ignore_permissions:
		doc.flags.ignore_permissions = True
	if not doc.flags.ignore_permissions:
		doc.check_permission("delete")
	if doc.docstatus == 1:
		frappe.throw(_("Submitted Record cannot be deleted. You must cancel it first."), frappe.ValidationError)
	if not ignore_on_trash:
		doc.run_method("on_trash")
	if not force:
		check_if_doc_is_linked(doc)
	for df in meta.get_table_fields():
		frappe.db.sql(f"delete from `tab{df.options}` where parent=%s and parenttype=%s", (name, doctype))
	frappe.db.sql(f"delete from `tab{doctype}` where name=%s", (name,))
	frappe.db.sql("delete from `__Auth` where doctype=%s and name=%s", (doctype, str(name)))
	from frappe.model.naming import revert_series_if_last

	autoname = meta.autoname or ""
	if autoname.startswith("naming_series:") and doc.get("naming_series"):
		revert_series_if_last(doc.naming_series, str(name), doc)
	doc.run_method("after_delete")
	frappe.clear_document_cache(doctype, name)
	frappe.publish_realtime("list_update", {"doctype": doctype, "name": name}, doctype=doctype, after_commit=True)


def check_if_doc_is_linked(doc, method: str = "Delete") -> None:
	"""LinkExistsError when another document still links to `doc`."""
	from frappe.model.meta import get_doctype_index

	for doctype in get_doctype_index():
		try:
			meta = frappe.get_meta(doctype)
		except frappe.DoesNotExistError:
			continue
		if meta.issingle:
			continue
		for df in meta.get_link_fields():
			if df.options != doc.doctype or not frappe.db.table_exists(f"tab{doctype}"):
				continue
			rows = frappe.db.sql(
				f"select name, {'parent, parenttype' if meta.istable else 'name, name'} from `tab{doctype}` where `{df.fieldname}`=%s limit 1",
				(doc.name,),
			)
			if not rows:
				continue
			name, parent, parenttype = rows[0]
			if meta.istable:
				if parenttype == doc.doctype and parent == doc.name:
					continue
				linked_doctype, linked_name = parenttype, parent
			else:
				if doctype == doc.doctype and name == doc.name:
					continue
				linked_doctype, linked_name = doctype, name
			frappe.throw(
				_("Cannot delete or cancel because {0} {1} is linked with {2} {3}").format(_(doc.doctype), frappe.bold(doc.name), _(linked_doctype), frappe.bold(linked_name)),
				frappe.LinkExistsError,
			)
