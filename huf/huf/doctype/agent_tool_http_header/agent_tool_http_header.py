from frappe.model.document import Document


class AgentToolHTTPHeader(Document):
	pass
