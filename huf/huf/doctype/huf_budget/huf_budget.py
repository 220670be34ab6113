import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.runtime import budgets


class HufBudget(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		budget_name: DF.Data
		enabled: DF.Check
		limit_usd: DF.Float
		period: DF.Literal["Day", "Month"]
		scope: DF.Literal["Site", "Agent", "User"]
		stopped_period: DF.Data | None
		user: DF.Link | None
		warned_period: DF.Data | None
		warning_percent: DF.Percent
	# end: auto-generated types

	def validate(self) -> None:
		"""Keep only the agent or user its scope names (required), a limit of 0 or more, a threshold in 1-100."""
		if self.scope != "Agent":
			self.agent = None
		if self.scope != "User":
			self.user = None
		if self.scope in ("Agent", "User") and not self.get(self.scope.lower()):
			frappe.throw(
				_("A budget of scope {0} must name the {1} it applies to.").format(
					_(self.scope), _(self.scope).lower()
				)
			)
		if (self.limit_usd or 0) < 0:
			frappe.throw(_("The limit cannot be negative."), frappe.ValidationError)
		if not 0 < (self.warning_percent or 0) <= 100:
			self.warning_percent = 80

	def on_change(self) -> None:
		budgets.clear_guard()  # every process's next check reads the budgets anew

	def on_trash(self) -> None:
		budgets.clear_guard()
