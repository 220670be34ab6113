import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint


class FlowRun(Document):
	def before_insert(self) -> None:
		# The run is pinned to the version of the flow it started with.
		flow = frappe.db.get_value(
			"Flow Definition", self.flow_definition, ["flow_id", "version"], as_dict=True
		)
		if flow:
			self.flow_id = flow.flow_id
			self.flow_version = cint(flow.version)

	def validate(self) -> None:
		if not self.max_hops:
			self.max_hops = 100
		if cint(self.max_hops) < 1:
			frappe.throw(_("Max Hops must be at least 1."))
		if cint(self.hop_count) < 0:
			frappe.throw(_("Hop Count cannot be negative."))
		if (
			self.is_new()
			and frappe.db.get_value("Flow Definition", self.flow_definition, "status") == "Archived"
		):
			frappe.throw(
				_("Flow {0} is archived and cannot be run.").format(frappe.bold(self.flow_definition))
			)
