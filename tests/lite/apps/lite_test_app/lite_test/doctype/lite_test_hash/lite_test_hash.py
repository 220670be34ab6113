from frappe.model.document import Document


class LiteTestHash(Document):
	pass
