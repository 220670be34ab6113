from frappe.model.document import Document


class AgentRole(Document):
	pass
