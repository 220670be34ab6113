"""Role: a named set of permissions given to users through Has Role rows."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.model.document import Document

STANDARD_ROLES = ("Administrator", "System Manager", "Guest", "All", "Desk User")


class Role(Document):
	def validate(self) -> None:
		if self.disabled and self.name in STANDARD_ROLES:
			frappe.throw(_("Standard role {0} cannot be disabled").format(self.name))

	def on_trash(self) -> None:
		if self.name in STANDARD_ROLES:
			frappe.throw(_("Standard role {0} cannot be deleted").format(self.name))

	def on_update(self) -> None:
		frappe.local.role_cache = {}
