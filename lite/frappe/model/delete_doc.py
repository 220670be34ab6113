"""Deleting documents: permission, on_trash, links that still point here, children, passwords."""

from __future__ import annotations

import frappe
from frappe import _

# Frappe's own `ignore_links_on_delete` hook (Frappe Lite's "frappe" app has no hooks.py)
_FRAPPE_IGNORE_LINKS_ON_DELETE = (
	"Communication",
	"ToDo",
	"DocShare",
	"Email Unsubscribe",
	"Activity Log",
	"File",
	"Version",
	"Document Follow",
	"Comment",
	"View Log",
	"Tag Link",
	"Notification Log",
	"Email Queue",
	"Document Share Key",
	"Integration Request",
	"Unhandled Email",
	"Webhook Request Log",
	"Workspace",
	"Route History",
	"Access Log",
	"Permission Log",
	"Error Log",
)
# (DocType, DocType field, name field) of records that only describe another document: removed with it
_REFERENCES_DELETED_WITH_DOC = (
	("Comment", "reference_doctype", "reference_name"),
	("ToDo", "reference_type", "reference_name"),
)


def delete_doc(
	doctype=None,
	name=None,
	force=0,
	ignore_doctypes=None,
	for_reload=False,
	ignore_permissions=False,
	flags=None,
	ignore_on_trash=False,
	ignore_missing=True,
	delete_permanently=False,
):
	"""Delete one document (or each of a list of names): permission, on_trash, links, children, passwords."""
	if not doctype:
		doctype = frappe.form_dict.get("dt")
		name = frappe.form_dict.get("dn")
	if isinstance(name, list | tuple):
		for n in name:
			delete_doc(
				doctype,
				n,
				force,
				ignore_doctypes,
				for_reload,
				ignore_permissions,
				flags,
				ignore_on_trash,
				ignore_missing,
				delete_permanently,
			)
		return
	meta = frappe.get_meta(doctype)
	if meta.issingle:
		frappe.throw(_("Cannot delete a Single DocType"))
	if not frappe.db.exists(doctype, name):
		if ignore_missing:
			return
		frappe.throw(_("{0} {1} not found").format(_(doctype), name), frappe.DoesNotExistError)
	if doctype == "DocType":
		_delete_doctype(name, force, flags, ignore_permissions)
		return
	doc = frappe.get_doc(doctype, name)
	doc.flags.update(flags or {})
	if ignore_permissions:
		doc.flags.ignore_permissions = True
	if not doc.flags.ignore_permissions:
		doc.check_permission("delete")
	if doc.docstatus == 1:
		frappe.throw(
			_("Submitted Record cannot be deleted. You must cancel it first."), frappe.ValidationError
		)
	if not ignore_on_trash:
		doc.run_method("on_trash")
		doc.flags.in_delete = True
		doc.run_method("on_change")
	if not force:
		check_if_doc_is_linked(doc)
		check_if_doc_is_dynamically_linked(doc)
	for df in meta.get_table_fields():
		frappe.db.sql(f"delete from `tab{df.options}` where parent=%s and parenttype=%s", (name, doctype))
	frappe.db.sql(f"delete from `tab{doctype}` where name=%s", (name,))
	frappe.db.sql("delete from `__Auth` where doctype=%s and name=%s", (doctype, str(name)))
	from frappe.model.naming import revert_series_if_last

	autoname = meta.autoname or ""
	if autoname.startswith("naming_series:") and doc.get("naming_series"):
		revert_series_if_last(doc.naming_series, str(name), doc)
	elif "#" in autoname and autoname.split(":")[0].lower() not in (
		"prompt",
		"field",
		"hash",
		"autoincrement",
		"format",
	):
		revert_series_if_last(autoname, str(name), doc)
	doc.run_method("after_delete")
	_delete_attachments_and_references(doctype, str(name))
	frappe.clear_document_cache(doctype, name)
	frappe.publish_realtime(
		"list_update", {"doctype": doctype, "name": name}, doctype=doctype, after_commit=True
	)


def _delete_doctype(name: str, force, flags, ignore_permissions: bool) -> None:
	"""A DocType record goes with its fields and permissions, as in Frappe: no on_trash, no link
	check, and its table stays (drop it with `frappe.db.sql_ddl`). Standard ones only in developer mode."""
	doc = frappe.get_doc("DocType", name)
	if not (doc.custom or frappe.conf.developer_mode or frappe.flags.in_patch or force):
		frappe.throw(_("Standard DocType can not be deleted."))
	doc.flags.update(flags or {})
	if ignore_permissions:
		doc.flags.ignore_permissions = True
	if not doc.flags.ignore_permissions and frappe.session.user != "Administrator":
		if not doc.custom:
			frappe.throw(_("Only the Administrator can delete a standard DocType."))
		doc.check_permission("delete")
	frappe.db.delete("DocType", {"name": name})
	for df in doc.meta.get_table_fields():
		frappe.db.delete(df.options, {"parenttype": "DocType", "parent": name})
	frappe.clear_cache(doctype=name)


def check_if_doc_is_linked(doc, method: str = "Delete") -> None:
	"""LinkExistsError when another document links to `doc` (for Cancel: a submitted one)."""
	ignored = set()
	if method == "Delete":
		ignored.update(_ignored_on_delete())
	elif doc.get("ignore_linked_doctypes"):
		ignored.update(doc.get("ignore_linked_doctypes"))
	for link_doctype, fieldname, meta in _link_fields_to(doc.doctype):
		if link_doctype in ignored or (fieldname == "amended_from" and method == "Cancel"):
			continue
		if meta.issingle:
			if method == "Delete" and frappe.db.get_single_value(link_doctype, fieldname) == doc.name:
				_raise_link_exists(doc, link_doctype, link_doctype, method)
			continue
		if not frappe.db.table_exists(link_doctype):
			continue
		columns = "name, docstatus" + (", parent, parenttype" if meta.istable else "")
		for row in frappe.db.sql(
			f"select {columns} from `tab{link_doctype}` where `{fieldname}`=%s", (doc.name,), as_dict=True
		):
			parent = row.get("parent")
			linked_doctype = row.get("parenttype") if parent else link_doctype
			if linked_doctype in ignored:
				continue
			if method == "Cancel" and frappe.utils.cint(row.docstatus) != 1:
				continue
			if method not in ("Delete", "Cancel"):
				continue
			if linked_doctype == doc.doctype and (parent or row.name) == doc.name:
				continue
			_raise_link_exists(doc, linked_doctype, parent or row.name, method)


def _link_fields_to(doctype: str):
	"""(DocType, fieldname, meta) of every Link field whose target is `doctype`."""
	from frappe.model.meta import _all_doctype_names

	for other in _all_doctype_names():
		try:
			meta = frappe.get_meta(other)
		except frappe.DoesNotExistError:
			continue
		for df in meta.get_link_fields():
			if df.options == doctype:
				yield other, df.fieldname, meta


def _raise_link_exists(doc, linked_doctype: str, linked_name: str, method: str) -> None:
	action = _("delete") if method == "Delete" else _("cancel")
	frappe.throw(
		_("Cannot {0} {1} {2} because it is linked with {3} {4}").format(
			action, _(doc.doctype), frappe.bold(doc.name), _(linked_doctype), frappe.bold(linked_name)
		),
		frappe.LinkExistsError,
		title=_("Linked with {0}").format(_(linked_doctype)),
	)


def check_if_doc_is_dynamically_linked(doc, method: str = "Delete") -> None:
	"""LinkExistsError when a Dynamic Link of another (non-cancelled) document points to `doc`."""
	from frappe.model.meta import _all_doctype_names

	ignored = (
		set(_ignored_on_delete()) if method == "Delete" else set(doc.get("ignore_linked_doctypes") or [])
	)
	for other in _all_doctype_names():
		if other in ignored:
			continue
		try:
			meta = frappe.get_meta(other)
		except frappe.DoesNotExistError:
			continue
		for df in meta.get_dynamic_link_fields():
			if not df.options or not meta.has_field(df.options):
				continue
			if meta.issingle:
				values = frappe.db.get_singles_dict(other)
				if values.get(df.options) == doc.doctype and values.get(df.fieldname) == doc.name:
					_raise_link_exists(doc, other, other, method)
				continue
			if not frappe.db.table_exists(other):
				continue
			columns = "name, docstatus" + (", parent, parenttype" if meta.istable else "")
			rows = frappe.db.sql(
				f"select {columns} from `tab{other}` where `{df.options}`=%s and `{df.fieldname}`=%s",
				(doc.doctype, str(doc.name)),
				as_dict=True,
			)
			for row in rows:
				docstatus = frappe.utils.cint(row.docstatus)
				if (method == "Delete" and docstatus < 2) or (method == "Cancel" and docstatus == 1):
					linked_doctype = row.parenttype if meta.istable else other
					if linked_doctype in ignored or (
						linked_doctype == doc.doctype and (row.get("parent") or row.name) == doc.name
					):
						continue
					_raise_link_exists(doc, linked_doctype, row.get("parent") or row.name, method)


def _ignored_on_delete() -> list[str]:
	return [*_FRAPPE_IGNORE_LINKS_ON_DELETE, *(frappe.get_hooks("ignore_links_on_delete") or [])]


def _delete_attachments_and_references(doctype: str, name: str) -> None:
	"""Files attached to the document go with it, and so do its comments and ToDos."""
	if frappe.db.table_exists("File"):
		for file_name in frappe.db.sql(
			"select name from `tabFile` where attached_to_doctype=%s and attached_to_name=%s",
			(doctype, name),
			pluck=True,
		):
			delete_doc("File", file_name, ignore_permissions=True, force=True)
	for ref_doctype, doctype_field, name_field in _REFERENCES_DELETED_WITH_DOC:
		if doctype != ref_doctype and frappe.db.table_exists(ref_doctype):
			frappe.db.sql(
				f"delete from `tab{ref_doctype}` where `{doctype_field}`=%s and `{name_field}`=%s",
				(doctype, name),
			)
