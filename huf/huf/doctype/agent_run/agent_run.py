import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, flt


class AgentRun(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		agent_orchestration: DF.Link | None
		agent_trigger: DF.Link | None
		cached_tokens: DF.Int
		cancelled_at: DF.Datetime | None
		cancelled_by: DF.Link | None
		chunks_injected: DF.Int
		conversation: DF.Link | None
		end_time: DF.Datetime | None
		error_message: DF.SmallText | None
		flow_id: DF.Data | None
		flow_node_id: DF.Data | None
		flow_run: DF.Link | None
		input_tokens: DF.Int
		is_child: DF.Check
		knowledge_sources_used: DF.JSON | None
		model: DF.Link | None
		output_tokens: DF.Int
		parent_run: DF.Link | None
		prompt: DF.SmallText | None
		provider: DF.Link | None
		reference_doctype: DF.Link | None
		reference_name: DF.DynamicLink | None
		response: DF.SmallText | None
		run_kind: DF.Literal["agent", "tool", "orchestrator"]
		runtime_context: DF.JSON | None
		sequence: DF.Int
		start_time: DF.Datetime | None
		status: DF.Literal["Queued", "Started", "Waiting Approval", "Success", "Failed", "Cancelled"]
		total_cost: DF.Currency
		total_tokens: DF.Int
		user: DF.Link | None
	# end: auto-generated types

	def before_insert(self) -> None:
		if not self.user:
			self.user = frappe.session.user
		if self.flow_run and not self.flow_id:
			self.flow_id = frappe.db.get_value("Flow Run", self.flow_run, "flow_id")

	def validate(self) -> None:
		for fieldname in ("input_tokens", "output_tokens", "cached_tokens", "chunks_injected"):
			if cint(self.get(fieldname)) < 0:
				frappe.throw(_("{0} cannot be negative.").format(_(self.meta.get_label(fieldname))))
		if flt(self.total_cost) < 0:
			frappe.throw(_("Total Cost cannot be negative."))
		self.total_tokens = cint(self.input_tokens) + cint(self.output_tokens)
		if self.agent and not (self.provider and self.model):
			provider, model = frappe.db.get_value("Agent", self.agent, ["provider", "model"]) or (None, None)
			self.provider = self.provider or provider
			self.model = self.model or model
