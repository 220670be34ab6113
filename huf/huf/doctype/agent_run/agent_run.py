import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, flt


class AgentRun(Document):
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
