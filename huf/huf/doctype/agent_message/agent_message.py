import frappe
from frappe.model.document import Document


class AgentMessage(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		agent_run: DF.Link | None
		attachment: DF.Attach | None
		content: DF.LongText | None
		content_blocks: DF.JSON | None
		context_policy: DF.Literal[
			"include_full",
			"include_summary",
			"include_reference",
			"include_on_demand",
			"exclude",
			"transient_only",
		]
		context_summary: DF.SmallText | None
		conversation: DF.Link
		conversation_index: DF.Int
		kind: DF.Literal["Message", "Tool Call", "Tool Result", "Image", "Audio", "Status", "Error"]
		model: DF.Link | None
		provider: DF.Link | None
		raw_payload: DF.JSON | None
		record_kind: DF.Literal[
			"",
			"message",
			"tool_call",
			"tool_result",
			"retrieval_context",
			"result_snapshot",
			"artifact",
			"summary",
			"status",
			"error",
		]
		reference_doctype: DF.Link | None
		reference_name: DF.DynamicLink | None
		role: DF.Literal["user", "agent", "tool", "system"]
		status: DF.Literal["", "Queued", "Started", "Completed", "Failed"]
		token_estimate: DF.Int
		tool_args: DF.JSON | None
		tool_call: DF.Link | None
		tool_call_id: DF.Data | None
		tool_calls: DF.JSON | None
		tool_name: DF.Data | None
		tool_status: DF.Data | None
		user: DF.Link | None
		visibility: DF.Literal["user_visible", "model_visible", "ui_only", "audit_only"]
	# end: auto-generated types

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
