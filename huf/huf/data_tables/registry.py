"""Registry rows of data tables (Huf Data Table) and what a user may see of them: schema, record counts."""

import frappe
from frappe import _

from huf.huf.capabilities import capabilities_of, check_capability
from huf.huf.data_tables.fields import from_docfield

MANAGE = "data.tables.manage"
_SEE = (MANAGE, "data.records.view_own", "data.records.view_all")


def can_see_tables(user: str | None = None) -> bool:
	return any(c in _SEE for c in capabilities_of(user))


def check_can_see_tables() -> None:
	"""Throw a PermissionError unless the user may see data tables (view_own, view_all or manage)."""
	if not can_see_tables():
		check_capability("data.records.view_own")


def get_table(name: str, manage: bool = False):
	"""The Huf Data Table `name`, after checking the user may see (or, with `manage`, design) tables."""
	if manage:
		check_capability(MANAGE)
	else:
		check_can_see_tables()
	if not isinstance(name, str) or not frappe.db.exists("Huf Data Table", name):
		frappe.throw(_("Data table {0} not found.").format(name), frappe.DoesNotExistError)
	return frappe.get_doc("Huf Data Table", name)


def table_fields(doctype: str) -> list[dict]:
	"""The field specs of a table's DocType, in display order."""
	meta = frappe.get_meta(doctype, cached=False)
	search = [f.strip() for f in (meta.search_fields or "").split(",") if f.strip()]
	return [from_docfield(df, search) for df in meta.fields]


def record_count(doctype: str) -> int:
	"""How many records of `doctype` the user may read (DocPerms and the row-level hooks apply)."""
	rows = frappe.get_list(
		doctype, fields=["count(*) as count"], as_list=True, order_by=None, limit_page_length=0
	)
	return int(rows[0][0]) if rows else 0


def schema(table) -> dict:
	"""The schema of a table as get_table_schema returns it, with what the user may do."""
	from huf.huf.data_tables.access import record_rights

	rights = record_rights()
	return {
		"name": table.name,
		"table_name": table.table_name,
		"doctype_name": table.doctype_name,
		"description": table.description,
		"icon": table.icon,
		"autoname_method": table.autoname_method,
		"naming_field": table.naming_field,
		"naming_series": table.naming_series,
		"title_field": table.title_field_name,
		"fields": table_fields(table.doctype_name),
		"record_count": record_count(table.doctype_name),
		"can": {
			"manage": rights["manage"],
			"create": rights["create"],
			"view_all": rights["view_all"],
			"edit_all": rights["edit_all"],
			"edit_own": rights["edit_own"],
		},
	}
