from frappe.model.document import Document


class LiteTestTwoNote(Document):
	pass
