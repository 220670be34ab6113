from frappe.model.document import Document


class LiteTestSettings(Document):
	pass
