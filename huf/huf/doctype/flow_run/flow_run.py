import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint


class FlowRun(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		cancelled_at: DF.Datetime | None
		cancelled_by: DF.Link | None
		completed_at: DF.Datetime | None
		context_json: DF.JSON | None
		conversation: DF.Link | None
		current_node_id: DF.Data | None
		definition_snapshot: DF.JSON | None
		flow_definition: DF.Link
		flow_id: DF.Data | None
		flow_version: DF.Int
		hop_count: DF.Int
		last_agent_run: DF.Link | None
		last_error: DF.SmallText | None
		max_hops: DF.Int
		mode: DF.Literal["Normal", "Agentic"]
		started_at: DF.Datetime | None
		status: DF.Literal[
			"Queued", "Running", "Waiting Approval", "Waiting User", "Success", "Failed", "Cancelled"
		]
		trigger_payload: DF.JSON | None
		trigger_type: DF.Literal["Manual", "Webhook", "Schedule", "Doc Event", "App Event"]
		user: DF.Link | None
		waiting: DF.JSON | None
	# end: auto-generated types

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
