import frappe
from frappe import _
from frappe.model.document import Document


class AgentToolApproval(Document):
	"""A tool call's approval request, and (approved for a conversation or always) a standing grant.

	Agent runs create the requests (huf.ai.runtime.approval_gate); decisions go through
	huf.ai.tool_approval_api (row lock, the waiting run resumed), never through saving the form.
	"""

	def validate(self) -> None:
		if self.is_new() and not self.flags.huf_gate:
			frappe.throw(_("Tool approval requests are made by agent runs."), frappe.PermissionError)
		if not self.is_new():
			frappe.throw(
				_(
					"Decide with the Approve and Deny buttons (huf.ai.tool_approval_api.decide_tool_approval)."
				),
				frappe.ValidationError,
			)
