"""Renaming a document and every Link that points to it."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.model.meta import get_doctype_index


def rename_doc(doctype: str, old: str, new: str, force: bool = False, merge: bool = False) -> str:
	"""Give `old` the name `new`, updating Link fields of every DocType."""
	if old == new:
		return new
	if not frappe.db.exists(doctype, old):
		frappe.throw(_("{0} {1} not found").format(_(doctype), old), frappe.DoesNotExistError)
	if frappe.db.exists(doctype, new):
		frappe.throw(_("{0} {1} already exists").format(_(doctype), new), frappe.DuplicateEntryError)
	doc = frappe.get_doc(doctype, old)
	doc.check_permission("write")
	frappe.db.sql(f"update `tab{doctype}` set name=%s where name=%s", (new, old))
	for df in doc.meta.get_table_fields():
		frappe.db.sql(f"update `tab{df.options}` set parent=%s where parent=%s and parenttype=%s", (new, old, doctype))
	frappe.db.sql("update `__Auth` set name=%s where doctype=%s and name=%s", (new, doctype, old))
	for other in get_doctype_index():
		meta = frappe.get_meta(other)
		if meta.issingle:
			continue
		for link in meta.get_link_fields():
			if link.options == doctype:
				frappe.db.sql(f"update `tab{other}` set `{link.fieldname}`=%s where `{link.fieldname}`=%s", (new, old))
	frappe.clear_document_cache(doctype)
	return new
