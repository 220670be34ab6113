import frappe
from frappe import _
from frappe.model.document import Document


class AgentChat(Document):
	def validate(self) -> None:
		if self.agent and not frappe.db.get_value("Agent", self.agent, "allow_chat"):
			frappe.throw(
				_("Chat is not enabled for the agent {0} (see Allow Chat).").format(frappe.bold(self.agent))
			)
