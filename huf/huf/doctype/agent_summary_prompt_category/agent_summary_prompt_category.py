from frappe.model.document import Document


class AgentSummaryPromptCategory(Document):
	pass
