"""Error Log: a traceback recorded by frappe.log_error."""

from __future__ import annotations

import frappe
from frappe.model.document import Document


class ErrorLog(Document):
	def onload(self) -> None:
		if not self.seen and not frappe.flags.read_only:
			self.db_set("seen", 1, update_modified=False)


@frappe.whitelist()
def clear_error_logs() -> None:
	"""Delete every Error Log (System Manager only)."""
	frappe.only_for("System Manager")
	frappe.db.delete("Error Log")
