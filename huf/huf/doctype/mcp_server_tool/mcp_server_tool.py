from frappe.model.document import Document


class MCPServerTool(Document):
	pass
