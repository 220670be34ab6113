from frappe.model.document import Document


class AgentMCPServer(Document):
	pass
