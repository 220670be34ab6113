from frappe.model.document import Document

from lite_test_app.events import record


class LiteTestOrder(Document):
	"""A submittable DocType that records its lifecycle calls."""

	def before_insert(self):
		record("controller", self, "before_insert")

	def after_insert(self):
		record("controller", self, "after_insert")

	def before_validate(self):
		record("controller", self, "before_validate")

	def validate(self):
		record("controller", self, "validate")

	def before_save(self):
		record("controller", self, "before_save")

	def on_update(self):
		record("controller", self, "on_update")

	def before_submit(self):
		record("controller", self, "before_submit")

	def on_submit(self):
		record("controller", self, "on_submit")

	def before_cancel(self):
		record("controller", self, "before_cancel")

	def on_cancel(self):
		record("controller", self, "on_cancel")

	def before_update_after_submit(self):
		record("controller", self, "before_update_after_submit")

	def on_update_after_submit(self):
		record("controller", self, "on_update_after_submit")

	def on_trash(self):
		record("controller", self, "on_trash")

	def after_delete(self):
		record("controller", self, "after_delete")

	def on_change(self):
		record("controller", self, "on_change")
