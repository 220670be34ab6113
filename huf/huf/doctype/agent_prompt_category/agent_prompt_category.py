from frappe.model.document import Document


class AgentPromptCategory(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		category_name: DF.Data
		color: DF.Data | None
		description: DF.SmallText | None
		icon: DF.Data | None
		parent_category: DF.Link | None
	# end: auto-generated types

	pass
