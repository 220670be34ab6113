"""ToDo: a task allocated to a user, optionally about another document."""

from __future__ import annotations

import frappe
from frappe.model.document import Document


class ToDo(Document):
	def validate(self) -> None:
		if self.is_new() and not self.assigned_by and frappe.session.user not in ("Guest",):
			self.assigned_by = frappe.session.user
		if self.reference_type and not self.reference_name:
			self.reference_type = None
