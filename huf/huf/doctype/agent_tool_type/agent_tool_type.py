from frappe.model.document import Document


class AgentToolType(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		name1: DF.Data
	# end: auto-generated types

	def validate(self) -> None:
		self.name1 = (self.name1 or "").strip()
