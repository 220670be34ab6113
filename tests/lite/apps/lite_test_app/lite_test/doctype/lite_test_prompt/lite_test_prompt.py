from frappe.model.document import Document


class LiteTestPrompt(Document):
	pass
