from frappe.model.document import Document


class AgentToolType(Document):
	def validate(self) -> None:
		self.name1 = (self.name1 or "").strip()
