from frappe.model.document import Document


class AgentFunctionParams(Document):
	pass
