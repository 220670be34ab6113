from frappe.model.document import Document


class AgentContextArtifact(Document):
	pass
