from frappe.model.document import Document


class AgentTriggerAttachment(Document):
	pass
