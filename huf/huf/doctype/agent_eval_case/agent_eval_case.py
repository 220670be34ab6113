import json

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.evals.checks import validate_check


class AgentEvalCase(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.agent_eval_check.agent_eval_check import AgentEvalCheck

		agent: DF.Link
		attachments: DF.SmallText | None
		case_context: DF.LongText | None
		checks: DF.Table[AgentEvalCheck]
		enabled: DF.Check
		prompt: DF.LongText
		recorded_tool_results: DF.Code | None
		title: DF.Data
	# end: auto-generated types

	def validate(self) -> None:
		self.title = (self.title or "").strip()
		for row in self.checks:
			validate_check(row)
		if self.recorded_tool_results:
			try:
				recorded = json.loads(self.recorded_tool_results)
			except ValueError:
				recorded = None
			if not isinstance(recorded, dict):
				frappe.throw(
					_("Recorded Tool Results must be a JSON object: {tool name: result}."),
					frappe.ValidationError,
				)
