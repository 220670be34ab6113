"""`frappe.client`: whitelisted, permission-checked document calls for HTTP clients."""

from __future__ import annotations

import json
from typing import Any

import frappe
import frappe.permissions
from frappe import _
from frappe.model import child_table_fields, default_fields


@frappe.whitelist()
def get_list(
	doctype: str,
	fields: list | str | None = None,
	filters: Any = None,
	group_by: str | None = None,
	order_by: str | None = None,
	limit_start: int | None = None,
	limit_page_length: int | None = 20,
	parent: str | None = None,
	debug: bool = False,
	as_dict: bool = True,
	or_filters: Any = None,
) -> list:
	"""Rows of `doctype` the user may read."""
	if frappe.is_table(doctype):
		check_parent_permission(parent, doctype)
	kwargs = dict(
		fields=_parse(fields),
		filters=get_safe_filters(filters),
		or_filters=get_safe_filters(or_filters),
		order_by=order_by,
		limit_start=frappe.utils.cint(limit_start),
		limit_page_length=frappe.utils.cint(limit_page_length),
		as_list=not frappe.utils.sbool(as_dict),
	)
	if group_by:
		kwargs["group_by"] = group_by
	if parent:
		kwargs["parent_doctype"] = parent
	return frappe.get_list(doctype, **{k: v for k, v in kwargs.items() if v is not None})


@frappe.whitelist()
def get_count(doctype, filters=None, debug=False, cache=False) -> int:
	"""How many rows of `doctype` match `filters` (as Frappe: no permission check)."""
	return frappe.db.count(doctype, get_safe_filters(filters), debug, cache)


@frappe.whitelist()
def get(doctype: str, name: str | None = None, filters: Any = None, parent: str | None = None) -> dict:
	"""A whole document (by name, by filters, or a Single)."""
	if frappe.is_table(doctype):
		check_parent_permission(parent, doctype)
	if name:
		doc = frappe.get_doc(doctype, name)
	elif filters or filters == {}:
		doc = frappe.get_doc(doctype, get_safe_filters(filters))
	else:
		doc = frappe.get_doc(doctype)
	doc.check_permission("read")
	doc.apply_fieldlevel_read_permissions()
	return doc.as_dict()


@frappe.whitelist()
def get_value(
	doctype: str,
	fieldname: str | list,
	filters: Any = None,
	as_dict: bool = True,
	debug: bool = False,
	parent: str | None = None,
) -> Any:
	"""Field value(s) of the first readable document matching `filters`."""
	if frappe.is_table(doctype):
		check_parent_permission(parent, doctype)
	if not frappe.has_permission(doctype, parent_doctype=parent):
		frappe.throw(_("No permission for {0}").format(_(doctype)), frappe.PermissionError)
	filters = get_safe_filters(filters)
	if isinstance(filters, str):
		filters = {"name": filters}
	try:
		fields = frappe.parse_json(fieldname) if isinstance(fieldname, str) else fieldname
	except (TypeError, ValueError):
		fields = [fieldname]
	if isinstance(fields, str):
		fields = [fields]
	as_dict = frappe.utils.sbool(as_dict)
	if frappe.get_meta(doctype).issingle:
		values = {f: frappe.db.get_single_value(doctype, f) for f in fields}
		return values if as_dict else (list(values.values()) if len(fields) > 1 else values[fields[0]])
	rows = get_list(
		doctype, filters=filters or None, fields=fields, limit_page_length=1, parent=parent, as_dict=as_dict
	)
	if as_dict:
		return rows[0] if rows else {}
	if not rows:
		return None
	return rows[0] if len(fields) > 1 else rows[0][0]


@frappe.whitelist()
def get_single_value(doctype: str, field: str) -> Any:
	if not frappe.has_permission(doctype):
		frappe.throw(_("No permission for {0}").format(_(doctype)), frappe.PermissionError)
	return frappe.db.get_single_value(doctype, field)


@frappe.whitelist(methods=["POST", "PUT"])
def set_value(doctype: str, name: str, fieldname: str | dict, value: Any = None) -> dict:
	"""Set one field (or a dict of fields) and save the document with its permission checks."""
	if isinstance(fieldname, str) and fieldname in (*default_fields, *child_table_fields):
		frappe.throw(_("Cannot edit standard fields"))
	if not value:
		values = fieldname
		if isinstance(fieldname, str):
			try:
				values = json.loads(fieldname)
			except ValueError:
				values = {fieldname: ""}
	else:
		values = {fieldname: value}
	if not frappe.get_meta(doctype).istable:
		doc = frappe.get_doc(doctype, name)
		doc.update(values)
	else:
		row = frappe.db.get_value(doctype, name, ["parenttype", "parent"], as_dict=True)
		if not row:
			frappe.throw(_("{0} {1} not found").format(_(doctype), name), frappe.DoesNotExistError)
		doc = frappe.get_doc(row.parenttype, row.parent)
		child = doc.getone({"doctype": doctype, "name": name})
		child.update(values)
	doc.save()
	return doc.as_dict()


@frappe.whitelist(methods=["POST", "PUT"])
def insert(doc: dict | str | None = None) -> dict:
	"""Insert a document given as a dict (a child row with parenttype/parent is appended and saved)."""
	return insert_doc(_parse(doc)).as_dict()


@frappe.whitelist(methods=["POST", "PUT"])
def insert_many(docs: list | str | None = None) -> list[str]:
	docs = _parse(docs) or []
	if len(docs) > 200:
		frappe.throw(_("Only 200 inserts allowed in one request"))
	return [insert_doc(d).name for d in docs]


def insert_doc(doc: dict):
	if not isinstance(doc, dict):
		frappe.throw(_("Invalid document"))
	if doc.get("parenttype"):
		parent = frappe.get_doc(doc["parenttype"], doc["parent"])
		parent.append(doc["parentfield"], doc)
		parent.save()
		return parent
	return frappe.get_doc(doc).insert()


@frappe.whitelist(methods=["POST", "PUT"])
def save(doc: dict | str) -> dict:
	"""Save a document given as a dict (stale copies are refused)."""
	doc = frappe.get_doc(_parse(doc))
	doc.save()
	return doc.as_dict()


@frappe.whitelist(methods=["POST", "PUT"])
def submit(doc: dict | str) -> dict:
	doc = frappe.get_doc(_parse(doc))
	doc.submit()
	return doc.as_dict()


@frappe.whitelist(methods=["POST", "PUT"])
def cancel(doctype: str, name: str) -> dict:
	doc = frappe.get_doc(doctype, name)
	doc.cancel()
	return doc.as_dict()


@frappe.whitelist(methods=["DELETE", "POST"])
def delete(doctype: str, name: str) -> None:
	"""Delete a document (with permission and link checks)."""
	frappe.delete_doc(doctype, name, ignore_missing=False)


@frappe.whitelist()
def has_permission(doctype: str, docname: str, perm_type: str = "read") -> dict:
	return {"has_permission": frappe.has_permission(doctype, perm_type.lower(), docname)}


@frappe.whitelist()
def get_password(doctype: str, name: str, fieldname: str) -> str | None:
	frappe.only_for("System Manager")
	return frappe.get_doc(doctype, name).get_password(fieldname)


def check_parent_permission(parent: str | None, child_doctype: str) -> None:
	"""Child rows are read through their parent, as in Frappe: `parent` must be a DocType with a field
	for `child_doctype` (a fake parent would open the whole child table) that the user may read."""
	if parent:
		if child_doctype and not _has_field_for(parent, child_doctype):
			raise frappe.PermissionError
		if frappe.permissions.has_permission(parent):
			return
	# either no parent was given or the user may not read it
	raise frappe.PermissionError


def _has_field_for(parent: str, child_doctype: str) -> bool:
	"""Whether DocType `parent` has a field whose options are `child_doctype` (Frappe asks DocField)."""
	try:
		meta = frappe.get_meta(parent)
	except frappe.DoesNotExistError:
		return False
	return any(df.options == child_doctype for df in meta.fields)


def get_safe_filters(filters: Any) -> Any:
	try:
		filters = json.loads(filters) if isinstance(filters, str) else filters
		if isinstance(filters, int | float):
			filters = str(filters)
	except (TypeError, ValueError):
		pass
	return filters


def _parse(value: Any) -> Any:
	if isinstance(value, str):
		try:
			return json.loads(value)
		except ValueError:
			if value.strip().startswith(("[", "{")):
				frappe.throw(_("Invalid JSON"))
			return [f.strip() for f in value.split(",")] if "," in value else value
	return value
