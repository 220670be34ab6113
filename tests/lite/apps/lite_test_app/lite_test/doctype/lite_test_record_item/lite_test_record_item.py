from frappe.model.document import Document


class LiteTestRecordItem(Document):
	pass
