"""Create or alter the tables of an app's DocTypes and keep their DocType records (`bench migrate`'s model sync)."""

from __future__ import annotations

from frappe_lite.schema import create_core_tables, sync_table

import frappe
from frappe.model.meta import _get_app_doctypes, clear_meta_cache

_DOCTYPE_RECORD_FIELDS = (
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
	"search_fields",
)


def sync_for(app_name, force=0, reset_permissions=False):
	"""Sync the tables and DocType / Module Def records of every DocType of `app_name`."""
	clear_meta_cache()
	create_core_tables()
	doctypes = sorted(_get_app_doctypes(app_name))
	for doctype in doctypes:
		sync_table(doctype)
	frappe.clear_cache()
	_sync_doctype_records(app_name)
	return doctypes


def sync_all(force=0, reset_permissions=False):
	"""Sync every installed app, frappe first."""
	for app in frappe.get_installed_apps():
		sync_for(app, force, reset_permissions=reset_permissions)


# ---------------------------------------------------------------------------------------------
# DocType and Module Def records


def _sync_doctype_records(app: str) -> None:
	"""Keep a Module Def row per module and a DocType row per DocType of `app`, so Links validate."""
	from frappe.model.meta import get_meta

	for module in frappe.get_module_list(app):
		_upsert("Module Def", module, {"module_name": module, "app_name": app, "custom": 0})
	for doctype in sorted(_get_app_doctypes(app)):
		meta = get_meta(doctype, cached=False)
		values = {field: meta.get(field) for field in _DOCTYPE_RECORD_FIELDS}
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
