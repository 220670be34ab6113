from frappe.model.document import Document


class LiteTestDossier(Document):
	pass
