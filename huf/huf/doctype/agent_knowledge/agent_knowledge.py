from frappe.model.document import Document


class AgentKnowledge(Document):
	pass
