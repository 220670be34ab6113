"""CSV export of a data table's records, as the calling user: what the user may see, with cells and
header labels that a spreadsheet would run as a formula made inert (a leading ')."""

import csv
import decimal
import io
import re
from typing import Any

import frappe
from frappe import _

from huf.huf.data_tables.records import check_access, list_query, table_of, value_fields

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def export_csv(
	name: str, filters: Any = None, order_by: str | None = None, search: str | None = None
) -> None:
	"""The records the user may see (matching the grid's filters) as a CSV download `<table>.csv`."""
	table = table_of(name)
	doctype = table.doctype_name
	check_access(doctype, "export")
	fields = value_fields(doctype)
	query = list_query(doctype, filters, order_by, search)
	rows = frappe.get_list(
		doctype,
		fields=["name", *(df.fieldname for df in fields)],
		as_list=True,
		limit_page_length=0,
		**query,
	)
	out = io.StringIO()
	writer = csv.writer(out)
	writer.writerow([cell(_("ID")), *(cell(df.label or df.fieldname) for df in fields)])
	for row in rows:
		writer.writerow([cell(value) for value in row])
	frappe.response["filename"] = f"{_filename(table.table_name)}.csv"
	frappe.response["filecontent"] = out.getvalue()
	frappe.response["type"] = "download"


def cell(value: Any) -> str:
	"""A value as CSV text; text a spreadsheet would read as a formula gets a leading '."""
	if value is None:
		return ""
	if isinstance(value, bool | int | float | decimal.Decimal):
		return str(value)
	text = str(value)
	return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _filename(table_name: str) -> str:
	return re.sub(r"[^A-Za-z0-9 _.-]+", "_", table_name or "records").strip() or "records"
