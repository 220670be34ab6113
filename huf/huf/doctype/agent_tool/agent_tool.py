from frappe.model.document import Document


class AgentTool(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		description: DF.SmallText | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		requires_approval: DF.Literal["Inherit", "Always", "Never"]
		tool: DF.Link
		type: DF.Data | None
	# end: auto-generated types

	pass
