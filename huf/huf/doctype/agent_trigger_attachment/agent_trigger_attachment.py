from frappe.model.document import Document


class AgentTriggerAttachment(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		child_table: DF.Literal[None]
		field_name: DF.Data
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		source_type: DF.Literal["Field", "Child Table"]
	# end: auto-generated types

	pass
