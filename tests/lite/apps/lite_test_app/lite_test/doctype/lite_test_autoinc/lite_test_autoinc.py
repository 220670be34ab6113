from frappe.model.document import Document


class LiteTestAutoinc(Document):
	pass
