from frappe.model.document import Document


class AgentEvalResult(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		agent_run: DF.Link | None
		answer: DF.LongText | None
		case_title: DF.Data | None
		check_results: DF.Code | None
		cost: DF.Float
		error: DF.SmallText | None
		eval_case: DF.Link | None
		eval_run: DF.Link
		judge_reasoning: DF.LongText | None
		latency: DF.Float
		status: DF.Literal["Passed", "Failed", "Error"]
		tool_calls: DF.Int
		turns: DF.Int
	# end: auto-generated types
