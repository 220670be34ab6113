import frappe
from frappe.model.document import Document


class AgentToolCall(Document):
	def validate(self) -> None:
		if self.agent_run and not self.conversation:
			self.conversation = frappe.db.get_value("Agent Run", self.agent_run, "conversation")
		if self.mcp_server:
			self.is_mcp_tool = 1
