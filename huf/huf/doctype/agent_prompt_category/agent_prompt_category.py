from frappe.model.document import Document


class AgentPromptCategory(Document):
	pass
