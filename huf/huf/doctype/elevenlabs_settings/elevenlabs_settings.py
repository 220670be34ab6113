import frappe
from frappe import _
from frappe.model.document import Document


class ElevenlabsSettings(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		agent_id: DF.Data | None
		provider: DF.Link | None
		transcript_user: DF.Link | None
		webhook_secret: DF.Password | None
	# end: auto-generated types

	def validate(self) -> None:
		self.agent_id = (self.agent_id or "").strip()
		if self.transcript_user in ("Administrator", "Guest"):
			frappe.throw(
				_("Transcripts cannot belong to {0}: choose a regular user.").format(self.transcript_user)
			)
