import frappe
from frappe.model.document import Document


class AgentToolCall(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent_run: DF.Link | None
		call_id: DF.LongText | None
		conversation: DF.Link | None
		error_message: DF.SmallText | None
		is_mcp_tool: DF.Check
		mcp_server: DF.Link | None
		status: DF.Literal["Pending", "Running", "Completed", "Failed"]
		tool: DF.Data | None
		tool_args: DF.JSON | None
		tool_result: DF.JSON | None
	# end: auto-generated types

	def validate(self) -> None:
		if self.agent_run and not self.conversation:
			self.conversation = frappe.db.get_value("Agent Run", self.agent_run, "conversation")
		if self.mcp_server:
			self.is_mcp_tool = 1
