"""Records of a data table as the calling user: the grid's page, one record saved, records deleted.

Everything goes through Frappe's own list/document API without `ignore_permissions`: the DocPerms of
the `HF <table>` DocType and the row-level rules of `huf.huf.data_tables.access` (hooks) decide.
"""

import json
import re
from typing import Any

import frappe
from frappe import _
from frappe.model import no_value_fields

from huf.huf.data_tables.access import record_rights
from huf.huf.data_tables.conversions import convert, text_of

MAX_PAGE_LENGTH = 500
STANDARD_COLUMNS = ("name", "owner", "creation", "modified", "modified_by")
OPERATORS = ("=", "!=", "like", "not like", ">", "<", ">=", "<=", "in", "not in", "is")
ORDER_PATTERN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?\s*$", re.IGNORECASE)
CHECK_WORDS = {"true": 1, "yes": 1, "y": 1, "on": 1, "false": 0, "no": 0, "n": 0, "off": 0}


def table_of(name: str) -> frappe._dict:
	"""The registry row of data table `name` (its DocType in `doctype_name`), or DoesNotExistError."""
	row = frappe.db.get_value("Huf Data Table", name, ["name", "table_name", "doctype_name"], as_dict=True)
	if not row or not row.doctype_name or not frappe.db.exists("DocType", row.doctype_name):
		frappe.throw(_("Data table {0} not found.").format(name), frappe.DoesNotExistError)
	return row


def check_access(doctype: str, ptype: str) -> None:
	"""PermissionError unless the user holds the DocPerm `ptype` on `doctype` and a capability for it
	(read: view_own/view_all, create: create, write/delete: edit_own/edit_all)."""
	right = {"read": "read", "export": "read", "create": "create"}.get(ptype, "write")
	if not frappe.has_permission(doctype, ptype) or not record_rights()[right]:
		frappe.throw(
			_("You are not allowed to {0} records of {1}.").format(_(ptype), _(doctype)),
			frappe.PermissionError,
		)


def value_fields(doctype: str) -> list:
	"""The DocFields of `doctype` that hold values, in display order."""
	return [df for df in frappe.get_meta(doctype).fields if df.fieldtype not in no_value_fields]


def columns(doctype: str) -> list[dict]:
	return [
		{"fieldname": df.fieldname, "label": df.label, "fieldtype": df.fieldtype, "options": df.options}
		for df in value_fields(doctype)
	]


# --- reading ---------------------------------------------------------------------------------------


def get_records(
	name: str,
	filters: Any = None,
	order_by: str | None = None,
	start: int = 0,
	page_length: int = 50,
	search: str | None = None,
) -> dict:
	"""One page of the records the user may see, the total that match, and what the user may do."""
	doctype = table_of(name).doctype_name
	check_access(doctype, "read")
	fieldnames = [df.fieldname for df in value_fields(doctype)]
	start = max(0, int(start or 0))
	page_length = max(1, min(int(page_length or 50), MAX_PAGE_LENGTH))
	query = list_query(doctype, filters, order_by, search)
	rows = frappe.get_list(
		doctype,
		fields=["name", "owner", "modified", *fieldnames],
		limit_start=start,
		limit_page_length=page_length,
		**query,
	)
	total = frappe.get_list(
		doctype,
		fields=["count(*) as count"],
		filters=query["filters"],
		or_filters=query["or_filters"],
		as_list=True,
		order_by=None,
		limit_page_length=0,
	)
	rights = rights_of(doctype)
	return {
		"columns": columns(doctype),
		"rows": [with_rights(row, rights) for row in rows],
		"total": int(total[0][0]) if total else 0,
		"start": start,
		"page_length": page_length,
		"can_create": rights["create"],
	}


def list_query(doctype: str, filters: Any, order_by: str | None, search: str | None) -> dict:
	"""filters, or_filters and order_by of a list of `doctype`, each checked against its fields."""
	meta = frappe.get_meta(doctype)
	known = set(STANDARD_COLUMNS) | {df.fieldname for df in value_fields(doctype)}
	return {
		"filters": _filters(frappe.parse_json(filters) if filters else [], known),
		"or_filters": _search(meta, search),
		"order_by": _order_by(order_by, known),
	}


def _filters(filters: Any, known: set[str]) -> list[list]:
	if isinstance(filters, dict):
		filters = [[key, "=", value] for key, value in filters.items()]
	if not isinstance(filters, list):
		frappe.throw(_("filters must be a list of [fieldname, operator, value]."))
	out = []
	for item in filters:
		if not isinstance(item, list | tuple) or len(item) != 3:
			frappe.throw(_("Each filter must be [fieldname, operator, value], not {0}.").format(item))
		fieldname, operator, value = item
		if fieldname not in known:
			frappe.throw(_("Cannot filter by {0}: the table has no such field.").format(fieldname))
		operator = str(operator).lower().strip()
		if operator not in OPERATORS:
			frappe.throw(
				_("Unknown filter operator {0}; use one of {1}.").format(operator, ", ".join(OPERATORS))
			)
		if operator == "is" and value not in ("set", "not set"):
			frappe.throw(_('The operator "is" takes "set" or "not set".'))
		if operator in ("in", "not in") and isinstance(value, str):
			value = [v.strip() for v in value.split(",") if v.strip()]
		out.append([fieldname, operator, value])
	return out


def _order_by(order_by: str | None, known: set[str]) -> str:
	if not order_by:
		return "modified desc"
	match = ORDER_PATTERN.match(str(order_by))
	if not match or match.group(1) not in known:
		frappe.throw(_("Cannot sort by {0}: give 'fieldname asc' or 'fieldname desc'.").format(order_by))
	return f"{match.group(1)} {(match.group(2) or 'asc').lower()}"


def search_fieldnames(meta) -> list[str]:
	"""The fields a search looks in: the DocType's search fields, else its title and Data fields."""
	named = [f.strip() for f in (meta.search_fields or "").split(",") if f.strip()]
	if meta.title_field:
		named.append(meta.title_field)
	if not named:
		named = [df.fieldname for df in meta.fields if df.fieldtype == "Data"]
	return [f for f in dict.fromkeys(named) if meta.has_field(f)]


def _search(meta, search: str | None) -> list[list]:
	text = (search or "").strip()
	if not text:
		return []
	return [[fieldname, "like", f"%{text}%"] for fieldname in search_fieldnames(meta) or ["name"]]


def rights_of(doctype: str) -> dict:
	"""What the user may do with records of `doctype` (capabilities and DocPerms, no row needed)."""
	rights = record_rights()
	write = frappe.has_permission(doctype, "write")
	return {
		"user": frappe.session.user,
		"create": bool(frappe.has_permission(doctype, "create") and rights["create"]),
		"edit_all": bool(write and rights["edit_all"]),
		"edit_own": bool(write and rights["edit_own"]),
	}


def with_rights(row: dict, rights: dict) -> dict:
	row = dict(row)
	row["_can_edit"] = rights["edit_all"] or (rights["edit_own"] and row.get("owner") == rights["user"])
	return row


# --- writing ---------------------------------------------------------------------------------------


def save_record(name: str, values: Any, record: str | None = None) -> dict:
	"""Insert a record (no `record`) or change record `record`; returns it as a grid row."""
	doctype = table_of(name).doctype_name
	values = frappe.parse_json(values) if values else {}
	if not isinstance(values, dict):
		frappe.throw(_("values must be an object of fieldname: value."))
	record_name = values.pop("name", None)
	converted = convert_values(doctype, values)
	if record:
		check_access(doctype, "write")
		doc = frappe.get_doc(doctype, record)
		doc.check_permission("write")
		doc.update(converted)
		check_required(doc)
		doc.save()
	else:
		check_access(doctype, "create")
		doc = frappe.get_doc({"doctype": doctype, **converted})
		if record_name and str(frappe.get_meta(doctype).autoname or "").lower() == "prompt":
			doc.name = str(record_name).strip()
		check_required(doc)
		doc.insert()
	fields = ["name", "owner", "modified", *(df.fieldname for df in value_fields(doctype))]
	return with_rights({f: doc.get(f) for f in fields}, rights_of(doctype))


def check_required(doc) -> None:
	"""MandatoryError naming the required fields (without a default) that `doc` leaves empty."""
	missing = [
		df.label or df.fieldname
		for df in value_fields(doc.doctype)
		if df.reqd and df.default in (None, "") and doc.get(df.fieldname) in (None, "")
	]
	if missing:
		frappe.throw(_("{0} is required.").format(", ".join(missing)), frappe.MandatoryError)


def delete_records(name: str, records: Any) -> dict:
	"""Delete `records` (names); all or nothing (the request rolls back on the first refusal)."""
	doctype = table_of(name).doctype_name
	records = frappe.parse_json(records) if isinstance(records, str) else records
	if not isinstance(records, list) or not records:
		frappe.throw(_("records must be a non-empty list of record names."))
	if len(records) > MAX_PAGE_LENGTH:
		frappe.throw(_("At most {0} records per call.").format(MAX_PAGE_LENGTH))
	check_access(doctype, "delete")
	for record in records:
		frappe.delete_doc(doctype, record)
	return {"deleted": len(records)}


# --- values ----------------------------------------------------------------------------------------


def convert_values(doctype: str, values: dict) -> dict:
	"""`values` converted to their fields' types; a clear error for an unknown field or a bad value."""
	fields = {df.fieldname: df for df in value_fields(doctype)}
	out = {}
	for fieldname, value in values.items():
		if fieldname in STANDARD_COLUMNS or fieldname.startswith("_"):
			continue
		df = fields.get(fieldname)
		if df is None:
			frappe.throw(_("{0} has no field {1}.").format(_(doctype), fieldname))
		try:
			out[fieldname] = convert_value(df, value)
		except ValueError as exc:
			frappe.throw(str(exc))
	return out


def convert_value(df, value: Any) -> Any:
	"""`value` (text from a grid or CSV, or JSON) as a value of field `df`: None when empty,
	ValueError naming the field and the value when it is not one (`conversions.convert`)."""
	if value is None or (isinstance(value, str) and not value.strip()):
		return None
	if isinstance(value, bool):
		value = int(value)
	if df.fieldtype == "Check" and isinstance(value, str) and value.strip().lower() in CHECK_WORDS:
		value = CHECK_WORDS[value.strip().lower()]
	if df.fieldtype == "JSON" and not isinstance(value, str):
		value = json.dumps(value)
	try:
		converted = convert(value, df.fieldtype, df.options)
	except ValueError as exc:
		reason = (
			"is not a date (YYYY-MM-DD)"
			if df.fieldtype == "Date" and "date and time" in str(exc)
			else str(exc)
		)
		raise ValueError(_("{0}: {1} {2}.").format(df.label or df.fieldname, value, _(reason))) from None
	# dates and times as the ISO text Frappe stores on both databases
	return text_of(converted) if df.fieldtype in ("Date", "Datetime", "Time") else converted
