from frappe.model.document import Document


class AgentFunctionParams(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		child_table_name: DF.Data | None
		description: DF.SmallText | None
		fieldname: DF.Data
		label: DF.Data
		options: DF.SmallText | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		required: DF.Check
		type: DF.Literal["string", "integer", "number", "boolean", "array", "object"]
	# end: auto-generated types

	pass
