import frappe
from frappe.model.document import Document

from lite_test_app.events import record


class LiteTestRecord(Document):
	"""Records every lifecycle call so tests can assert Frappe's order."""

	def before_naming(self):
		record("controller", self, "before_naming")

	def autoname(self):
		record("controller", self, "autoname")

	def before_insert(self):
		record("controller", self, "before_insert")

	def after_insert(self):
		record("controller", self, "after_insert")

	def before_validate(self):
		record("controller", self, "before_validate")

	def validate(self):
		record("controller", self, "validate")
		self.total = sum((row.qty or 0) * (row.rate or 0) for row in self.items)
		for row in self.items:
			row.amount = (row.qty or 0) * (row.rate or 0)
		if self.title == "invalid":
			frappe.throw("Title may not be 'invalid'")

	def before_save(self):
		record("controller", self, "before_save")

	def on_update(self):
		record("controller", self, "on_update")
		self.flags.title_changed = self.has_value_changed("title")
		before = self.get_doc_before_save()
		self.flags.title_before = before.title if before else None

	def on_trash(self):
		record("controller", self, "on_trash")

	def after_delete(self):
		record("controller", self, "after_delete")

	def on_change(self):
		record("controller", self, "on_change")

	def double_qty(self, factor: int = 2) -> int:
		"""A plain method for run_method tests."""
		self.qty = (self.qty or 0) * factor
		return self.qty

	@frappe.whitelist(methods=["POST"])
	def add_to_qty(self, amount: int = 1) -> int:
		"""A whitelisted controller method for the HTTP tests (run_doc_method)."""
		self.qty = (self.qty or 0) + int(amount)
		self.save()
		return self.qty
