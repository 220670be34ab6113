import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, flt

from huf.ai.providers.cost import PRICING_CACHE_KEY, invalidate_pricing_cache

__all__ = ["PRICING_CACHE_KEY", "AIModel"]  # the key stays importable here for the doctype's tests


class AIModel(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		cached_input_cost_per_1m_tokens: DF.Float
		input_cost_per_1m_tokens: DF.Float
		modalities: DF.Literal["Text", "Image", "Text-to-Speech", "Transcription", "Embeddings"]
		model_name: DF.Data
		output_cost_per_1m_tokens: DF.Float
		provider: DF.Link
		use_custom_pricing: DF.Check
	# end: auto-generated types

	def validate(self) -> None:
		self.model_name = (self.model_name or "").strip()
		self.validate_prices()

	def validate_prices(self) -> None:
		prices = {
			"input_cost_per_1m_tokens": flt(self.input_cost_per_1m_tokens),
			"output_cost_per_1m_tokens": flt(self.output_cost_per_1m_tokens),
			"cached_input_cost_per_1m_tokens": flt(self.cached_input_cost_per_1m_tokens),
		}
		for fieldname, value in prices.items():
			if value < 0:
				frappe.throw(_("{0} cannot be negative.").format(_(self.meta.get_label(fieldname))))

		input_cost, output_cost = prices["input_cost_per_1m_tokens"], prices["output_cost_per_1m_tokens"]
		if self.use_custom_pricing:
			return
		if bool(input_cost) != bool(output_cost):
			frappe.throw(_("Set the input and the output price together (0 for both means free)."))
		if input_cost and output_cost:
			# Both prices given: the user clearly wants them used.
			self.use_custom_pricing = 1
		elif prices["cached_input_cost_per_1m_tokens"]:
			frappe.throw(_("A cached input price needs the input and output prices too."))

	def on_update(self) -> None:
		invalidate_pricing_cache(self.name)

	def on_trash(self) -> None:
		invalidate_pricing_cache(self.name)

	def after_rename(self, old: str, new: str, merge: bool = False) -> None:
		invalidate_pricing_cache(new)


MODALITIES = ("Text", "Image", "Text-to-Speech", "Transcription", "Embeddings")


@frappe.whitelist()
def get_models_by_modality(
	doctype: str | None = None,
	txt: str | None = None,
	searchfield: str | None = None,
	start: int = 0,
	page_len: int = 20,
	filters: dict | str | None = None,
) -> list:
	"""Link query for AI Model fields: models of `filters.modality` (and `filters.provider`) the caller may read."""
	if not frappe.has_permission("AI Model", "read"):
		frappe.throw(_("You are not allowed to read AI Models."), frappe.PermissionError)
	filters = frappe.parse_json(filters) if isinstance(filters, str) and filters else filters or {}
	if not isinstance(filters, dict):
		frappe.throw(_("filters must be an object such as {0}.").format('{"modality": "Transcription"}'))
	modality = filters.get("modality")
	if modality not in MODALITIES:
		frappe.throw(_("Filter by modality, one of: {0}.").format(", ".join(MODALITIES)))
	conditions = {"modalities": modality}
	if filters.get("provider"):
		conditions["provider"] = str(filters["provider"])
	text = (txt or "").strip()
	return frappe.get_list(
		"AI Model",
		filters=conditions,
		or_filters={"name": ["like", f"%{text}%"], "provider": ["like", f"%{text}%"]} if text else None,
		fields=["name", "provider"],
		order_by="name asc",
		limit_start=max(cint(start), 0),
		limit_page_length=min(max(cint(page_len), 1), 100),
		as_list=True,
	)
