import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import throw_if_duplicate_rows


class IntegrationSettings(Document):
	def validate(self) -> None:
		for row in self.credentials:
			row.key = (row.key or "").strip()
		throw_if_duplicate_rows(self.credentials, "key", _("Credentials"))
		throw_if_duplicate_rows(self.recipients, "recipient_id", _("Recipients"))
		if self.is_active:
			self.validate_required_credentials()
		if not self.label:
			self.label = self.service

	def validate_required_credentials(self) -> None:
		service = frappe.get_doc("Integration Service", self.service)
		present = {row.key for row in self.credentials if row.value}
		missing = [key for key in service.credential_keys(required_only=True) if key not in present]
		if missing:
			frappe.throw(
				_("{0} needs the credentials: {1}.").format(frappe.bold(self.service), ", ".join(missing))
			)

	def on_update(self) -> None:
		if self.is_default:
			# One default per service.
			for name in frappe.get_all(
				"Integration Settings",
				filters={"service": self.service, "is_default": 1, "name": ("!=", self.name)},
				pluck="name",
			):
				frappe.db.set_value("Integration Settings", name, "is_default", 0)
