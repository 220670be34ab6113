"""Email Queue Recipient: one address an Email Queue is sent to, with its own status."""

from frappe.model.document import Document


class EmailQueueRecipient(Document):
	pass
