from frappe.model.document import Document


class LiteTestSeries(Document):
	pass
