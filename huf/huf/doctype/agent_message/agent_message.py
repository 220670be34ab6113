import frappe
from frappe.model.document import Document


class AgentMessage(Document):
	def before_insert(self) -> None:
		if not self.user:
			self.user = frappe.session.user
		if self.conversation:
			if not self.agent:
				self.agent = frappe.db.get_value("Agent Conversation", self.conversation, "agent")
			if not self.conversation_index:
				# Same atomic counter as ConversationManager.add_message, so direct inserts never race.
				from huf.ai.conversation.manager import next_message_index

				self.conversation_index = next_message_index(self.conversation)

	def validate(self) -> None:
		if not self.record_kind:
			self.record_kind = {
				"Tool Call": "tool_call",
				"Tool Result": "tool_result",
				"Status": "status",
				"Error": "error",
			}.get(self.kind, "message")
		if self.tool_call and not self.tool_name:
			call = frappe.db.get_value(
				"Agent Tool Call", self.tool_call, ["tool", "tool_args", "status"], as_dict=True
			)
			if call:
				self.tool_name, self.tool_args, self.tool_status = call.tool, call.tool_args, call.status
