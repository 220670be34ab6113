from frappe.model.document import Document


class HufRolePermission(Document):
	pass
