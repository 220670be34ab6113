"""Report: a Query Report (one SELECT) or a Script Report (an app's `execute(filters)` or a sandboxed script)."""

from __future__ import annotations

import re
from typing import Any

import frappe
from frappe import _
from frappe.model.document import Document

_SELECT_QUERY = re.compile(r"^\s*(select|with)\b", re.IGNORECASE)


class Report(Document):
	def validate(self) -> None:
		if not self.is_standard:
			self.is_standard = "No"
		if (
			self.is_standard == "Yes"
			and frappe.session.user != "Administrator"
			and not frappe.conf.get("developer_mode")
		):
			frappe.throw(_("Only Administrator can save a standard report. Please rename and save."))
		if self.report_type == "Query Report" and self.query:
			_check_select_query(self.query)
		if self.report_type in ("Query Report", "Script Report") and self.is_standard == "No":
			# both run code or SQL on the server
			frappe.only_for(("Administrator", "System Manager"))

	def is_permitted(self) -> bool:
		"""Whether the session user holds one of the report's roles (every user when it lists none)."""
		allowed = [row.role for row in self.get("roles") or []]
		return not allowed or bool(set(allowed) & set(frappe.get_roles()))

	def execute_query_report(self, filters: dict | None) -> tuple[list, list]:
		if not self.query:
			frappe.throw(_("Must specify a Query to run"), title=_("Report Document Error"))
		_check_select_query(self.query)
		rows = frappe.db.sql(self.query, filters or {}, as_dict=True)
		columns = list(rows[0].keys()) if rows else []
		return columns, [list(row.values()) for row in rows]

	def execute_script_report(self, filters: dict | None) -> Any:
		if self.is_standard == "Yes":
			return self.execute_module(filters)
		return self.execute_script(filters)

	def execute_module(self, filters: dict | None) -> Any:
		module = self.module or frappe.db.get_value("DocType", self.ref_doctype, "module")
		return frappe.get_attr(get_report_module_dotted_path(module, self.name) + ".execute")(
			frappe._dict(filters or {})
		)

	def execute_script(self, filters: dict | None) -> Any:
		from frappe.utils.safe_exec import safe_exec

		scope = {"filters": frappe._dict(filters or {}), "data": None, "result": None, "columns": None}
		safe_exec(self.report_script or "", None, scope, script_filename=f"Report {self.name}")
		if scope["data"]:
			return scope["data"]
		return scope["columns"] or [], scope["result"] or []


def _check_select_query(query: str) -> None:
	"""Only one SELECT (or WITH ... SELECT) statement may run as a report."""
	text = query.strip().rstrip(";")
	if not _SELECT_QUERY.match(text) or ";" in text:
		frappe.throw(_("Query must be a SELECT"), title=_("Report Document Error"))


def get_report_module_dotted_path(module: str, report_name: str) -> str:
	from frappe.modules import get_module_app

	return f"{get_module_app(module)}.{frappe.scrub(module)}.report.{frappe.scrub(report_name)}.{frappe.scrub(report_name)}"
