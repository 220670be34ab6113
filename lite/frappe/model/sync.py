"""Create or alter the tables of an app's DocTypes and keep their DocType records (`bench migrate`'s model sync)."""

from __future__ import annotations

import frappe
from frappe.database.schema import create_core_tables, sync_table
from frappe.model.meta import clear_meta_cache, get_app_doctypes

DOCTYPE_RECORD_FIELDS = (
	"module",
	"istable",
	"issingle",
	"is_submittable",
	"is_tree",
	"editable_grid",
	"track_changes",
	"autoname",
	"title_field",
	"sort_field",
	"sort_order",
	"description",
)


def sync_for(app: str, force: bool = False, reset_permissions: bool = False) -> list[str]:
	"""Sync the tables and DocType / Module Def records of every DocType of `app`; returns their names."""
	clear_meta_cache()
	create_core_tables()
	doctypes = sorted(get_app_doctypes(app))
	for doctype in doctypes:
		sync_table(doctype)
	frappe.clear_cache()
	sync_doctype_records(app)
	return doctypes


def sync_all(force: bool = False, verbose: bool = False) -> None:
	"""Sync every installed app, frappe first."""
	for app in frappe.get_installed_apps():
		if verbose:
			print(f"Updating DocTypes for {app}")
		sync_for(app, force=force)


# ---------------------------------------------------------------------------------------------
# DocType and Module Def records


def sync_doctype_records(app: str) -> None:
	"""Keep a Module Def row per module and a DocType row per DocType of `app`, so Links validate."""
	from frappe.model.meta import get_meta
	from frappe.modules import get_app_modules

	for module in get_app_modules(app):
		_upsert("Module Def", module, {"module_name": module, "app_name": app, "custom": 0})
	for doctype in sorted(get_app_doctypes(app)):
		meta = get_meta(doctype, cached=False)
		values = {field: meta.get(field) for field in DOCTYPE_RECORD_FIELDS}
		for field in ("istable", "issingle", "is_submittable", "is_tree", "editable_grid", "track_changes"):
			values[field] = int(values[field] or 0)
		values.update(app=app, custom=0)
		_upsert("DocType", doctype, values)


def _upsert(doctype: str, name: str, values: dict) -> None:
	from frappe.utils import now_datetime

	columns = list(values)
	row = frappe.db.sql(
		"select {} from `tab{}` where name=%s".format(", ".join(f"`{c}`" for c in columns), doctype), (name,)
	)
	if row:
		if any(_differs(old, values[c]) for c, old in zip(columns, row[0], strict=True)):
			frappe.db.set_value(doctype, name, values, modified_by="Administrator")
		return
	doc = frappe.get_doc({"doctype": doctype, **values})
	now = now_datetime()
	doc.update(
		{
			"name": name,
			"owner": "Administrator",
			"modified_by": "Administrator",
			"creation": now,
			"modified": now,
		}
	)
	doc.db_insert()


def _differs(old, new) -> bool:
	if old in (None, "") and new in (None, ""):
		return False
	return str(old) != str(new)
