import frappe
from frappe import _
from frappe.model.document import Document


class ElevenlabsSettings(Document):
	def validate(self) -> None:
		self.agent_id = (self.agent_id or "").strip()
		if self.transcript_user in ("Administrator", "Guest"):
			frappe.throw(
				_("Transcripts cannot belong to {0}: choose a regular user.").format(self.transcript_user)
			)
