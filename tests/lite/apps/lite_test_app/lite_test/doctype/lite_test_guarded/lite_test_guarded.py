from frappe.model.document import Document


class LiteTestGuarded(Document):
	pass
