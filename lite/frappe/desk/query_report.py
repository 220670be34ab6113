"""Running Query and Script Reports (`frappe.desk.query_report.run`), with Frappe's permission checks."""

from __future__ import annotations

import json
import time
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt


def get_report_doc(report_name: str) -> Any:
	"""The Report, if the user holds one of its roles and may report on its DocType and it is enabled."""
	doc = frappe.get_doc("Report", report_name)
	doc.custom_columns = []
	if doc.report_type == "Custom Report":
		custom = doc
		doc = frappe.get_doc("Report", custom.reference_report)
		doc.custom_report = report_name
		doc.custom_columns = custom.json
		doc.is_custom_report = True
	if not doc.is_permitted():
		frappe.throw(_("You don't have access to Report: {0}").format(_(report_name)), frappe.PermissionError)
	if not frappe.has_permission(doc.ref_doctype, "report"):
		frappe.throw(
			_("You don't have permission to get a report on: {0}").format(_(doc.ref_doctype)),
			frappe.PermissionError,
		)
	if doc.disabled:
		frappe.throw(_("Report {0} is disabled").format(report_name))
	return doc


def generate_report_result(report: Any, filters: Any = None, user: str | None = None) -> dict:
	"""Columns and rows of `report` for `filters` (the report's execute returns columns, data[, message, chart, summary])."""
	filters = _parse_filters(filters)
	started = time.monotonic()
	message = chart = report_summary = None
	skip_total_row = False
	if report.report_type == "Query Report":
		columns, result = report.execute_query_report(filters)
	elif report.report_type == "Script Report":
		res = report.execute_script_report(filters)
		if isinstance(res, dict):
			columns, result = res.get("columns") or [], res.get("result") or res.get("data") or []
			message, chart = res.get("message"), res.get("chart")
		else:
			res = list(res or [[], []])
			columns, result = res[0] or [], res[1] or []
			message = res[2] if len(res) > 2 else None
			chart = res[3] if len(res) > 3 else None
			report_summary = res[4] if len(res) > 4 else None
			skip_total_row = bool(res[5]) if len(res) > 5 else False
	else:
		frappe.throw(
			_("Report {0} is a {1}; only Query and Script Reports can be run here.").format(
				report.name, report.report_type
			)
		)
	result = list(result)
	if cint(report.add_total_row) and result and not skip_total_row:
		result = add_total_row(result, columns)
	return {
		"result": result,
		"columns": columns,
		"message": message,
		"chart": chart,
		"report_summary": report_summary,
		"skip_total_row": skip_total_row,
		"status": None,
		"execution_time": round(time.monotonic() - started, 4),
	}


@frappe.whitelist()
def run(
	report_name,
	filters=None,
	user=None,
	ignore_prepared_report=False,
	custom_columns=None,
	is_tree=False,
	parent_field=None,
	are_default_filters=True,
) -> dict:
	"""Run a Query or Script Report as the session user."""
	report = get_report_doc(report_name)
	result = generate_report_result(report, filters, user or frappe.session.user)
	result["add_total_row"] = cint(report.add_total_row) and not result.get("skip_total_row", False)
	return result


def _parse_filters(filters: Any) -> dict:
	if isinstance(filters, str):
		filters = json.loads(filters) if filters.strip() else {}
	return frappe._dict(filters or {})


def add_total_row(result: list, columns: list) -> list:
	"""Append a row with the totals of the numeric columns ("Total" in the first one)."""
	total: list = [""] * len(columns)
	for i, column in enumerate(columns):
		fieldtype, fieldname = _column_type(column)
		if fieldtype not in ("Currency", "Int", "Float", "Percent"):
			continue
		for row in result:
			value = row.get(fieldname) if isinstance(row, dict) else row[i] if i < len(row) else None
			total[i] = flt(total[i]) + flt(value)
		if fieldtype == "Percent":
			total[i] = flt(total[i]) / len(result)
	if columns and _column_type(columns[0])[0] not in ("Currency", "Int", "Float", "Percent", "Date"):
		total[0] = _("Total")
	if result and isinstance(result[0], dict):
		total = {
			(_column_type(c)[1] or str(i)): v for i, (c, v) in enumerate(zip(columns, total, strict=False))
		}
	return [*result, total]


def _column_type(column: Any) -> tuple[str | None, str | None]:
	if isinstance(column, dict):
		return column.get("fieldtype"), column.get("fieldname")
	parts = str(column).split(":")
	fieldtype = parts[1].split("/")[0] if len(parts) > 1 and parts[1] else "Data"
	return fieldtype, frappe.scrub(parts[0])
