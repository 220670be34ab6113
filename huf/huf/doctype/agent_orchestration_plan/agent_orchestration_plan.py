from frappe.model.document import Document


class AgentOrchestrationPlan(Document):
	pass
