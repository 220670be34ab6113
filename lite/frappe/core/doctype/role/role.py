"""Role: a named set of permissions given to users through Has Role rows."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.model.document import Document

STANDARD_ROLES = ("Administrator", "System Manager", "Script Manager", "All", "Guest")


class Role(Document):
	def before_rename(self, old, new, merge=False):
		if old in STANDARD_ROLES:
			frappe.throw(_("Standard roles cannot be renamed"))

	def validate(self) -> None:
		if self.disabled and self.name in STANDARD_ROLES:
			frappe.throw(_("Standard roles cannot be disabled"))

	def on_update(self) -> None:
		frappe.local.role_cache = {}
