from frappe.model.document import Document


class MCPServerHeader(Document):
	pass
