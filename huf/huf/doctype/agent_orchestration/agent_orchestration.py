import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint


class AgentOrchestration(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.agent_orchestration_plan.agent_orchestration_plan import AgentOrchestrationPlan

		agent: DF.Link
		agent_orchestration_plan: DF.Table[AgentOrchestrationPlan]
		conversation: DF.Link | None
		current_step: DF.Int
		error_log: DF.SmallText | None
		last_run_at: DF.Datetime | None
		parent_run: DF.Link | None
		scratchpad: DF.Code | None
		status: DF.Literal["Planned", "Running", "Paused", "Completed", "Failed", "Cancelled"]
	# end: auto-generated types

	def validate(self) -> None:
		for position, row in enumerate(self.agent_orchestration_plan or [], 1):
			if not row.step_index:
				row.step_index = position
		indexes = [cint(row.step_index) for row in self.agent_orchestration_plan or []]
		if len(set(indexes)) != len(indexes):
			frappe.throw(_("Plan: each step needs its own Step Index."))
		if cint(self.current_step) < 0:
			frappe.throw(_("Current Step cannot be negative."))
