"""Note: a titled piece of text, private to its owner unless public."""

from __future__ import annotations

from frappe.model.document import Document


class Note(Document):
	def validate(self) -> None:
		if self.notify_on_login and not self.expire_notification_on:
			from frappe.utils import add_days, nowdate

			self.expire_notification_on = add_days(nowdate(), 10)
