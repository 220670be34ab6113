from frappe.model.document import Document


class ElevenlabsSettings(Document):
	def validate(self) -> None:
		self.agent_id = (self.agent_id or "").strip()
