from frappe.model.document import Document


class AgentTool(Document):
	pass
