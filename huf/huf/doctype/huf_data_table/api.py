"""Data tables: design (create, update, delete) and read their schemas and record counts (docs/data-tables.md).

Designing needs the capability data.tables.manage, checked before any DocType is touched; the DocType
itself is then created, changed and deleted through Frappe's DocType document. The spec's endpoints live
here; Huf's other data table endpoints (the list, records, CSV, table tools) are in `huf.api.data_tables`."""

import json

import frappe
from frappe import _
from frappe.model.meta import trim_table
from frappe.model.utils.rename_field import rename_field

from huf.huf.capabilities import check_capability
from huf.huf.data_tables.access import clear_cache
from huf.huf.data_tables.builder import (
	AUTONAME_METHODS,
	apply_fields,
	autoname_for,
	check_title_field,
	new_doctype,
)
from huf.huf.data_tables.changes import SchemaChange
from huf.huf.data_tables.fields import clean_fields
from huf.huf.data_tables.registry import (
	MANAGE,
	check_can_see_tables,
	get_table,
	record_count,
	schema,
	table_fields,
)
from huf.huf.data_tables.table_tools import remove_table_tools


def _clean_text(value: str | None, limit: int) -> str | None:
	value = (value or "").strip()
	return value[:limit] or None


@frappe.whitelist(methods=["POST"])
def create_data_table(
	table_name: str,
	fields: list | str,
	description: str | None = None,
	icon: str | None = None,
	autoname_method: str = "Autoincrement",
	title_field: str | None = None,
	naming_field: str | None = None,
	naming_series: str | None = None,
) -> dict:
	"""Create a data table: its registry row and the custom DocType "HF <table_name>" (with its table)."""
	check_capability(MANAGE)
	autoname_method = autoname_method or "Autoincrement"
	if autoname_method not in AUTONAME_METHODS:
		frappe.throw(_("Autoname Method must be one of: {0}.").format(", ".join(AUTONAME_METHODS)))
	table = frappe.get_doc(
		{
			"doctype": "Huf Data Table",
			"table_name": table_name,
			"description": _clean_text(description, 1000),
			"icon": _clean_text(icon, 140),
			"autoname_method": autoname_method,
			"naming_field": naming_field if autoname_method == "Field" else None,
			"naming_series": naming_series if autoname_method == "Naming Series" else None,
			"title_field_name": title_field or None,
		}
	)
	table.validate()  # the table name and the autoname settings, before anything is created
	specs = clean_fields(fields, table.doctype_name)
	autoname = autoname_for(autoname_method, specs, table.naming_field, table.naming_series)
	check_title_field(title_field, specs)
	if frappe.db.exists("DocType", table.doctype_name):
		frappe.throw(
			_("A table named {0} already exists.").format(frappe.bold(table.table_name)),
			frappe.DuplicateEntryError,
		)
	table.insert(ignore_permissions=True)
	new_doctype(table.doctype_name, specs, autoname, title_field, table.description).insert(
		ignore_permissions=True
	)
	table.save(ignore_permissions=True)  # field_count from the DocType
	clear_cache()
	_log(table, "created")
	return schema(table)


@frappe.whitelist(methods=["POST"])
def update_data_table(
	name: str,
	fields: list | str,
	description: str | None = None,
	icon: str | None = None,
	title_field: str | None = None,
) -> dict:
	"""Change a table's fields (add, rename keeping data, reorder, remove, change type) and details."""
	table = get_table(name, manage=True)
	doctype = table.doctype_name
	specs = clean_fields(fields, doctype)
	change = SchemaChange(doctype, table_fields(doctype), specs, table.naming_field)
	if title_field is None:
		title_field = change.renames.get(table.title_field_name, table.title_field_name)
		if title_field in change.removed:
			title_field = None
	if table.autoname_method == "Field":
		naming = next(f for f in specs if f["fieldname"] == table.naming_field)
		if not naming["reqd"] or not naming["unique"]:
			frappe.throw(_("The naming field must stay mandatory and unique."))
	check_title_field(title_field, specs)
	change.check()
	change.convert_before()
	doc = frappe.get_doc("DocType", doctype)
	apply_fields(doc, specs, title_field or None)
	if description is not None:
		doc.description = _clean_text(description, 1000)
	doc.save(ignore_permissions=True)
	for old, new in change.renames.items():
		rename_field(doctype, old, new)
	change.convert_after()
	trim_table(doctype, dry_run=False)  # drop the columns of removed and renamed fields
	# Frappe 15 caches the columns it read before dropping them; a dry run forgets and re-reads them
	# (each line clears its own cache key), so has_column and the next queries see the table as it is
	trim_table(doctype, dry_run=True)
	if description is not None:
		table.description = _clean_text(description, 1000)
	if icon is not None:
		table.icon = _clean_text(icon, 140)
	table.title_field_name = title_field or None
	table.save(ignore_permissions=True)
	frappe.clear_cache(doctype=doctype)
	return schema(table)


@frappe.whitelist(methods=["POST"])
def delete_data_table(name: str, confirm_name: str | None = None) -> dict:
	"""Delete a table: its records, DocType, database table and registry row. `confirm_name` must be the table name."""
	table = get_table(name, manage=True)
	if confirm_name != table.table_name:
		frappe.throw(
			_("Type the table name {0} exactly to confirm deleting it and all its records.").format(
				frappe.bold(table.table_name)
			)
		)
	doctype = table.doctype_name
	linking = frappe.get_all(
		"DocField",
		filters={"fieldtype": "Link", "options": doctype, "parent": ["!=", doctype], "parenttype": "DocType"},
		pluck="parent",
	)
	if linking:
		frappe.throw(
			_("{0} links to this table; remove that field first.").format(
				frappe.bold(", ".join(sorted(set(linking))))
			)
		)
	count = frappe.db.count(doctype) if frappe.db.table_exists(doctype) else 0
	remove_table_tools(doctype)  # tools on a table that is gone could only fail
	frappe.db.delete(doctype)
	frappe.delete_doc("DocType", doctype, ignore_permissions=True, force=True)
	frappe.delete_doc("Huf Data Table", table.name, ignore_permissions=True)
	_log(table, "deleted", count)
	frappe.db.sql_ddl(f"drop table if exists `tab{doctype}`")  # Frappe keeps the table of a deleted DocType
	clear_cache()
	return {"deleted": table.name}


@frappe.whitelist()
def get_table_record_counts(names: list | str) -> dict:
	"""{registry name: how many records of that table the caller may read}."""
	check_can_see_tables()
	if isinstance(names, str):
		try:
			names = json.loads(names) if names.strip().startswith("[") else [names]
		except ValueError:
			frappe.throw(_("names must be a JSON list of data table names."))
	if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(names) > 500:
		frappe.throw(_("names must be a list of at most 500 data table names."))
	rows = frappe.get_all(
		"Huf Data Table", filters={"name": ["in", names or [""]]}, fields=["name", "doctype_name"]
	)
	return {row.name: record_count(row.doctype_name) for row in rows}


@frappe.whitelist()
def get_table_schema(name: str) -> dict:
	"""The table's details, fields (display order), record count and what the caller may do."""
	return schema(get_table(name))


def list_data_tables() -> list[dict]:
	"""The data tables with their record counts (the endpoint `huf.api.data_tables.list_data_tables` checks
	that the caller may see records or design tables)."""
	tables = frappe.get_all(
		"Huf Data Table",
		fields=["name", "table_name", "doctype_name", "description", "icon", "field_count", "modified"],
		order_by="table_name asc",
	)
	for row in tables:
		row["record_count"] = (
			record_count(row.doctype_name) if frappe.db.exists("DocType", row.doctype_name) else 0
		)
	return tables


def _log(table, action: str, records: int | None = None) -> None:
	"""A Comment on the registry row and a line in the huf log: who created or deleted which table."""
	user = frappe.session.user
	if action == "deleted":
		text = _("{0} deleted the data table {1} ({2}) with {3} record(s).").format(
			user, table.table_name, table.doctype_name, records
		)
		comment_type = "Deleted"
	else:
		text = _("{0} created the data table {1} ({2}).").format(user, table.table_name, table.doctype_name)
		comment_type = "Info"
	frappe.get_doc(
		{
			"doctype": "Comment",
			"comment_type": comment_type,
			"reference_doctype": "Huf Data Table",
			# no reference_name: Frappe removes the comments of a deleted document
			"subject": table.table_name,
			"content": text,
		}
	).insert(ignore_permissions=True)
	frappe.logger("huf").info(text)
