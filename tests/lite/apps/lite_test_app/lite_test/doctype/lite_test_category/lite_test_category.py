from frappe.model.document import Document


class LiteTestCategory(Document):
	pass
