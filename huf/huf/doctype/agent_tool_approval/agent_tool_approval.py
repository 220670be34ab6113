import frappe
from frappe import _
from frappe.model.document import Document


class AgentToolApproval(Document):
	"""A tool call's approval request, and (approved for a conversation or always) a standing grant.

	Agent runs create the requests (huf.ai.runtime.approval_gate); decisions go through
	huf.api.approvals (row lock, the waiting run resumed), never through saving the form.
	"""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		agent_run: DF.Link | None
		arguments: DF.Code | None
		arguments_hash: DF.Data | None
		comment: DF.SmallText | None
		conversation: DF.Link | None
		decided_at: DF.Datetime | None
		decided_by: DF.Data | None
		expires_at: DF.Datetime | None
		requested_at: DF.Datetime | None
		run_user: DF.Link | None
		scope: DF.Literal["Once", "Conversation", "Always"]
		status: DF.Literal["Pending", "Approved", "Denied", "Expired", "Revoked"]
		tool_call_id: DF.Data | None
		tool_function: DF.Link | None
		tool_name: DF.Data
		used: DF.Check
	# end: auto-generated types

	def validate(self) -> None:
		if self.is_new() and not self.flags.huf_gate:
			frappe.throw(_("Tool approval requests are made by agent runs."), frappe.PermissionError)
		if not self.is_new():
			frappe.throw(
				_("Decide with the Approve and Deny buttons (huf.api.approvals.decide_tool_approval)."),
				frappe.ValidationError,
			)
