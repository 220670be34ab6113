from frappe.model.document import Document


class IntegrationSettingsRole(Document):
	pass
