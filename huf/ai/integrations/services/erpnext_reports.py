"""ERPNext report tools: list the script and query reports of the site of the `frappe` settings and run one
by name (`frappe.desk.query_report.run`, which checks the site user's report permissions)."""

import json

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.frappe_site import capped, list_rows
from huf.ai.integrations.services.tool_params import json_arg, param, require, tool

SERVICE = "frappe"
RUN = "/api/method/frappe.desk.query_report.run"
MAX_ROWS = 100
MAX_REPORTS = 200
MODULES = ("Accounts", "Selling", "Buying", "Stock", "Manufacturing", "CRM", "Projects", "HR", "Support")


def _column(column) -> dict:
	if isinstance(column, dict):
		return {
			"fieldname": column.get("fieldname") or column.get("label"),
			"label": column.get("label") or column.get("fieldname"),
			"fieldtype": column.get("fieldtype"),
		}
	# "Label:Fieldtype/Options:Width" of old-style reports
	label = str(column).split(":")[0]
	return {"fieldname": label, "label": label, "fieldtype": None}


def erpnext_run_report(
	report_name: str, filters: dict | str | None = None, settings: str | None = None
) -> dict:
	"""The columns and (at most 100) rows of a report run with `filters`."""
	body = {
		"report_name": str(require(report_name, "report_name")),
		"filters": json.dumps(json_arg(filters, "filters", (dict,)) if filters else {}),
	}
	answer = service_client(SERVICE, settings).request("POST", RUN, json=body)
	data = answer.get("message") or {}
	columns = [_column(c) for c in data.get("columns") or []]
	names = [c["fieldname"] for c in columns]
	rows = [
		row if isinstance(row, dict) else dict(zip(names, row, strict=False))
		for row in (data.get("result") or [])
		if isinstance(row, dict | list)
	]
	return {
		"report_name": body["report_name"],
		"columns": columns[:50],
		"rows": [capped(row) for row in rows[:MAX_ROWS]],
		"row_count": len(rows),
		"truncated": len(rows) > MAX_ROWS,
		"prepared_report": bool(data.get("prepared_report")),
	}


def erpnext_list_reports(module: str | None = None, settings: str | None = None) -> dict:
	"""Enabled script and query reports of the site (of one module when given)."""
	filters = [
		["Report", "disabled", "=", 0],
		["Report", "report_type", "in", ["Script Report", "Query Report"]],
	]
	if module:
		filters.append(["Report", "module", "=", module])
	reports = list_rows(
		service_client(SERVICE, settings),
		"Report",
		["name", "module", "report_type", "ref_doctype"],
		filters=filters,
		order_by="module asc, name asc",
		limit=MAX_REPORTS,
	)
	return {"count": len(reports), "reports": reports}


_PATH = "huf.ai.integrations.services.erpnext_reports."
TOOLS = [
	tool(
		"erpnext_run_report",
		_PATH + "erpnext_run_report",
		"Run an ERPNext script or query report by name (e.g. 'General Ledger', 'Accounts Receivable', "
		"'Stock Balance', 'Sales Register') and get its columns and rows. Use erpnext_list_reports to find "
		"report names.",
		[
			param("report_name", "string", "Exact report name (case-sensitive).", 1),
			param(
				"filters",
				"object",
				'Report filters, e.g. {"company": "Acme", "from_date": "2026-01-01", "to_date": "2026-12-31"}.',
			),
		],
	),
	tool(
		"erpnext_list_reports",
		_PATH + "erpnext_list_reports",
		"List the ERPNext script and query reports of the connected site, to find a report for erpnext_run_report.",
		[param("module", "string", "Only reports of this module, e.g. " + ", ".join(MODULES) + ".")],
	),
]
