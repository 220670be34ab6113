from frappe.model.document import Document


class IntegrationRecipient(Document):
	pass
