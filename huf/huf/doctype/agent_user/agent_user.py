from frappe.model.document import Document


class AgentUser(Document):
	pass
