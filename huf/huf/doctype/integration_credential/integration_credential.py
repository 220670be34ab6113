from frappe.model.document import Document


class IntegrationCredential(Document):
	pass
