from frappe.model.document import Document


class AgentOrchestrationPlan(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		instruction: DF.LongText
		output_ref: DF.LongText | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
		status: DF.Literal["Pending", "Running", "Completed", "Failed", "Skipped"]
		step_index: DF.Int
	# end: auto-generated types

	pass
