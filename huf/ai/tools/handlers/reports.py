"""Get Report Result tools: Script and Query Reports run as the user, with the Report's permission rules."""

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.spec import ToolSpec


def get_report_result(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	"""Columns and rows of a Script or Query Report of an installed app, as the user."""
	from frappe.desk.query_report import run as run_report

	report_name = str(args.get("report_name") or "").strip()
	if not report_name or not frappe.db.exists("Report", report_name):
		frappe.throw(_("Report {0} not found.").format(report_name), frappe.DoesNotExistError)
	filters = args.get("filters") or {}
	result = run_report(report_name, filters=filters)
	columns = [_column_label(c) for c in result.get("columns") or []]
	rows = result.get("result") or []
	limit = cint(args.get("limit")) or 100
	return {
		"report": report_name,
		"columns": columns,
		"rows": [_report_row(row, result.get("columns") or []) for row in rows[:limit]],
		"row_count": len(rows),
		**({"truncated": True} if len(rows) > limit else {}),
	}


def _column_label(column: Any) -> str:
	if isinstance(column, dict):
		return column.get("label") or column.get("fieldname") or ""
	return str(column).split(":", 1)[0]


def _report_row(row: Any, columns: list) -> Any:
	if isinstance(row, dict) or not isinstance(row, list | tuple):
		return row
	keys = [
		(c.get("fieldname") or c.get("label")) if isinstance(c, dict) else str(c).split(":", 1)[0]
		for c in columns
	]
	return dict(zip(keys, row, strict=False)) if len(keys) == len(row) else list(row)
