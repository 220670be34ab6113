import frappe
from frappe import _
from frappe.model.document import Document


class AgentChat(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		conversation: DF.Link | None
		message: DF.SmallText | None
	# end: auto-generated types

	def validate(self) -> None:
		if self.agent and not frappe.db.get_value("Agent", self.agent, "allow_chat"):
			frappe.throw(
				_("Chat is not enabled for the agent {0} (see Allow Chat).").format(frappe.bold(self.agent))
			)
