from frappe.model.document import Document


class MCPServerTool(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		description: DF.SmallText | None
		enabled: DF.Check
		parameters: DF.Code | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		tool_name: DF.Data
	# end: auto-generated types

	pass
