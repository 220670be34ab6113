from frappe.model.document import Document


class AgentKnowledge(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		description: DF.SmallText | None
		knowledge_source: DF.Link
		knowledge_type: DF.Data | None
		mode: DF.Literal["Optional", "Mandatory"]
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		priority: DF.Int
		token_budget: DF.Int
	# end: auto-generated types

	pass
