from frappe.model.document import Document


class AgentEvalRun(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		done_cases: DF.Int
		error: DF.SmallText | None
		failed_cases: DF.Int
		finished_at: DF.Datetime | None
		model: DF.Link | None
		passed_cases: DF.Int
		prompt_version: DF.Link | None
		requested_by: DF.Link | None
		started_at: DF.Datetime | None
		status: DF.Literal["Queued", "Running", "Passed", "Failed", "Error"]
		total_cases: DF.Int
		total_cost: DF.Float
		total_latency: DF.Float
	# end: auto-generated types
