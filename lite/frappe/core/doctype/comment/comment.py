"""Comment: a note, like or info line shown in a document's timeline."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.model.document import Document


class Comment(Document):
	def validate(self) -> None:
		if self.comment_type == "Comment" and not (self.content or "").strip():
			frappe.throw(_("Comment can only be edited or saved with some content"), frappe.MandatoryError)
		if not self.comment_email and frappe.session.user != "Guest":
			self.comment_email = frappe.session.user
		if self.reference_doctype and self.reference_name and not self.reference_owner:
			try:
				self.reference_owner = frappe.db.get_value(
					self.reference_doctype, self.reference_name, "owner"
				)
			except frappe.DoesNotExistError:
				self.reference_owner = None
