from frappe.model.document import Document


class LiteTestUUID(Document):
	pass
