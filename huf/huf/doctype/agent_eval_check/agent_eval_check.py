from frappe.model.document import Document


class AgentEvalCheck(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		arguments_match: DF.SmallText | None
		judge_agent: DF.Link | None
		kind: DF.Literal[
			"Contains",
			"Not Contains",
			"Regex",
			"JSON Schema",
			"Called Tool",
			"Did Not Call Tool",
			"Max Cost",
			"Max Turns",
			"Rubric",
		]
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		rubric: DF.SmallText | None
		threshold: DF.Float
		tool: DF.Data | None
		value: DF.SmallText | None
	# end: auto-generated types
