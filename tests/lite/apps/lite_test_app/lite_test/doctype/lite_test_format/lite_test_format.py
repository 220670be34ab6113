from frappe.model.document import Document


class LiteTestFormat(Document):
	pass
