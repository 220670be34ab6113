import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint


class AgentOrchestration(Document):
	def validate(self) -> None:
		for position, row in enumerate(self.agent_orchestration_plan or [], 1):
			if not row.step_index:
				row.step_index = position
		indexes = [cint(row.step_index) for row in self.agent_orchestration_plan or []]
		if len(set(indexes)) != len(indexes):
			frappe.throw(_("Plan: each step needs its own Step Index."))
		if cint(self.current_step) < 0:
			frappe.throw(_("Current Step cannot be negative."))
