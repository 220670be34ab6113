from frappe.model.document import Document

from huf.huf.validators import validate_endpoint_settings


class OpenAISettings(Document):
	def validate(self) -> None:
		validate_endpoint_settings(self)
