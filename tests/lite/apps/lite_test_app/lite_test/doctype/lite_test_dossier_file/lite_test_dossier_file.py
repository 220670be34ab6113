from frappe.model.document import Document


class LiteTestDossierFile(Document):
	pass
