from frappe.model.document import Document


class AgentMCPServer(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		enabled: DF.Check
		mcp_server: DF.Link
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		server_url: DF.Data | None
		tool_count: DF.Int
	# end: auto-generated types

	pass
