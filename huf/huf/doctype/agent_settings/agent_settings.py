from frappe.model.document import Document

from huf.huf.validators import validate_model_of_provider


class AgentSettings(Document):
	def validate(self) -> None:
		if self.default_provider and self.default_model:
			validate_model_of_provider(self.default_model, self.default_provider)
